/**
 * UNISWAP_V2: any Uniswap-V2-style factory and router (Router02 interface; SushiSwap's is the same). Paths are
 * direct, or through the wrapped native or the USD reference token (hub-tokens.ts). Quotes are the router's own formula (getAmountsOut /
 * getAmountsIn: 0.3 % fee, constant product) applied to the pairs' reserves, read once per plan; the spot
 * price (for the execution price impact) comes from the same reserves. A route of one V2 path executes
 * through Router02 (`uniswapV2RouterCalls`); a split route's V2 parts through SwapRouter02.
 */
import { type Address, erc20Abi, type Hex, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { ERC20_AMOUNT_OFFSET, type Fill, FillKind, type IntentCall } from '../contracts/types.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import { uniswapV2FactoryAbi, uniswapV2PairAbi, uniswapV2RouterAbi } from './abis.ts';
import { createCalldataEncoder } from './calldata-encoder.ts';
import { createContractRead } from './contract-read.ts';
import { SWAP_HOP_GAS } from './gas.ts';
import { hubTokens } from './hub-tokens.ts';
import { memoPathQuote } from './memo-path-quote.ts';
import { createPoolDirectory, type PoolDirectory } from './pool-directory.ts';
import {
  type PathQuote,
  ProviderId,
  type SwapCallParams,
  type SwapPath,
  type SwapProvider,
} from './types.ts';

/** Uniswap V2 keeps 0.3 % of every hop's input for liquidity providers: out = in × 997 / 1000 at spot. */
const LP_FEE_KEPT_NUMERATOR = 997n;
const LP_FEE_DENOMINATOR = 1_000n;
/** The V2 fee in pips, as V3 fees are written (for the route breakdown). */
const LP_FEE_PIPS = 3000;
/** Router02 swap calldata: amount words at 4 and 36, the path offset at 68, `to` at 100, deadline at 132. */
const SWAP_FIRST_AMOUNT_OFFSET = 4;
const SWAP_SECOND_AMOUNT_OFFSET = 36;
const SWAP_TO_OFFSET = 100;

// Compiled once (calldata-encoder.ts says why): a quote with swaps encodes these on every quote.
const encodeApprove = createCalldataEncoder(erc20Abi, 'approve');
// The pool reads, one eth_call each (contract-read.ts says why not readContract).
const readPair = createContractRead(uniswapV2FactoryAbi, 'getPair');
const readReserves = createContractRead(uniswapV2PairAbi, 'getReserves');
const encodeSwap = {
  swapExactTokensForETH: createCalldataEncoder(uniswapV2RouterAbi, 'swapExactTokensForETH'),
  swapExactTokensForTokens: createCalldataEncoder(uniswapV2RouterAbi, 'swapExactTokensForTokens'),
  swapTokensForExactETH: createCalldataEncoder(uniswapV2RouterAbi, 'swapTokensForExactETH'),
  swapTokensForExactTokens: createCalldataEncoder(uniswapV2RouterAbi, 'swapTokensForExactTokens'),
};

export interface UniswapV2ProviderDeps {
  /** A public client for the chain (reads only). */
  getClient(chainId: number): PublicClient;
  /** Pair addresses known across plans; a plan of its own when absent. */
  directory?: PoolDirectory | undefined;
}

interface Pair {
  address: Address;
  /** Reserves in the order the pair was asked for: [of the first token, of the second]. */
  reserves: [bigint, bigint];
}

export function createUniswapV2Provider(deps: UniswapV2ProviderDeps): SwapProvider {
  const directory = deps.directory ?? createPoolDirectory();
  // A provider is created for each plan: every pair is looked up and its reserves read once per plan, so
  // nothing goes stale and the several paths through one pair share the reads.
  const pairs = new Map<string, Promise<Pair | undefined>>();
  function pairOf(chain: ChainConfig, a: Address, b: Address): Promise<Pair | undefined> {
    const key = `${chain.chainId}:${a.toLowerCase()}:${b.toLowerCase()}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = readPairState(chain, a, b);
      pairs.set(key, pair);
    }
    return pair;
  }

  async function readPairState(chain: ChainConfig, a: Address, b: Address): Promise<Pair | undefined> {
    const factory = chain.contracts.uniswapV2Factory;
    if (!factory) return undefined;
    const client = deps.getClient(chain.chainId);
    let address = directory.v2Pair(chain.chainId, a, b);
    if (address === undefined) {
      const found = await readPair(client, factory, [a, b]);
      address = isAddressEqual(found, zeroAddress) ? null : found;
      directory.noteV2Pair(chain.chainId, a, b, address);
    }
    if (address === null) return undefined;
    const [r0, r1] = await readReserves(client, address, []);
    if (r0 === 0n || r1 === 0n) return undefined;
    // token0 is the lower address (the factory sorts), so the order needs no read.
    return { address, reserves: a.toLowerCase() < b.toLowerCase() ? [r0, r1] : [r1, r0] };
  }

  return {
    id: ProviderId.UniswapV2,
    async paths(chain, tokenIn, tokenOut) {
      if (!chain.contracts.uniswapV2Router || isAddressEqual(tokenIn, tokenOut)) return [];
      const middles = hubTokens(chain, [tokenIn, tokenOut]);
      const [direct, ...viaMiddle] = await Promise.all([
        pairOf(chain, tokenIn, tokenOut),
        ...middles.map((m) => Promise.all([pairOf(chain, tokenIn, m), pairOf(chain, m, tokenOut)])),
      ]);
      const paths: SwapPath[] = [];
      if (direct) paths.push(pathOf(chain, [tokenIn, tokenOut], [direct]));
      viaMiddle.forEach(([first, second], i) => {
        if (first && second) paths.push(pathOf(chain, [tokenIn, middles[i]!, tokenOut], [first, second]));
      });
      return paths;
    },
  };
}

function pathOf(chain: ChainConfig, tokens: Address[], pairs: Pair[]): SwapPath {
  return {
    provider: ProviderId.UniswapV2,
    chainId: chain.chainId,
    tokens,
    pools: pairs.map((p) => p.address),
    fees: pairs.map(() => LP_FEE_PIPS),
    quote: memoPathQuote(async (tradeType, amount) => quotePairs(pairs, tradeType, amount)),
  };
}

/** Router02's getAmountsOut / getAmountsIn over the reserves; undefined where the router would revert. */
function quotePairs(
  pairs: Pair[],
  tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT',
  amount: bigint,
): PathQuote | undefined {
  if (amount <= 0n) return undefined;
  let amountIn = amount;
  let amountOut = amount;
  if (tradeType === 'EXACT_INPUT') {
    for (const {
      reserves: [reserveIn, reserveOut],
    } of pairs) {
      const withFee = amountOut * LP_FEE_KEPT_NUMERATOR;
      amountOut = (withFee * reserveOut) / (reserveIn * LP_FEE_DENOMINATOR + withFee);
    }
    if (amountOut === 0n) return undefined;
  } else {
    for (const {
      reserves: [reserveIn, reserveOut],
    } of [...pairs].reverse()) {
      if (amountIn >= reserveOut) return undefined;
      amountIn =
        (reserveIn * amountIn * LP_FEE_DENOMINATOR) / ((reserveOut - amountIn) * LP_FEE_KEPT_NUMERATOR) + 1n;
    }
  }
  let spot = amountIn;
  for (const {
    reserves: [reserveIn, reserveOut],
  } of pairs) {
    spot = (spot * LP_FEE_KEPT_NUMERATOR * reserveOut) / (LP_FEE_DENOMINATOR * reserveIn);
  }
  const hops = BigInt(pairs.length);
  const kept = (amountIn * LP_FEE_KEPT_NUMERATOR ** hops) / LP_FEE_DENOMINATOR ** hops;
  return { amountIn, amountOut, spotAmountOut: spot, feeAmount: amountIn - kept, gas: hops * SWAP_HOP_GAS };
}

/**
 * approve(router, own balance of tokenIn) + the Router02 swap that fits the trade type and output kind: a
 * route of one V2 path. The input is the account's whole balance (an OwnBalance fill).
 */
export function uniswapV2RouterCalls(params: SwapCallParams): IntentCall[] {
  const { quote, amountOutLimit, recipient, nativeOut, deadline } = params;
  const router = quote.router;
  const ownIn = (offset: number) => ({ kind: FillKind.OwnBalance, token: quote.tokenIn, offset }) as const;
  const approve: IntentCall = {
    target: quote.tokenIn,
    value: 0n,
    data: encodeApprove([router, 0n]),
    fills: [ownIn(ERC20_AMOUNT_OFFSET)],
  };
  const to = recipient.kind === 'self' ? zeroAddress : recipient.address;
  const path = [...quote.path];
  let data: Hex;
  let amountFill: number;
  if (quote.tradeType === 'EXACT_INPUT') {
    const functionName = nativeOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens';
    data = encodeSwap[functionName]([0n, amountOutLimit, path, to, deadline]);
    amountFill = SWAP_FIRST_AMOUNT_OFFSET;
  } else {
    const functionName = nativeOut ? 'swapTokensForExactETH' : 'swapTokensForExactTokens';
    data = encodeSwap[functionName]([amountOutLimit, 0n, path, to, deadline]);
    amountFill = SWAP_SECOND_AMOUNT_OFFSET;
  }
  const fills: Fill[] = [ownIn(amountFill)];
  // The account's address depends on the hash of these very calls, so "to = me" can only be a run-time fill.
  if (recipient.kind === 'self')
    fills.push({ kind: FillKind.OwnAddress, token: zeroAddress, offset: SWAP_TO_OFFSET });
  return [approve, { target: router, value: 0n, data, fills }];
}
