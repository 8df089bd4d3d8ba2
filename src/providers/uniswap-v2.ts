/**
 * UNISWAP_V2: any Uniswap-V2-style router (Router02 interface; SushiSwap's is the same). Quotes come from the
 * router's `getAmountsOut` / `getAmountsIn` over on-chain reserves; the spot price (for the execution price
 * impact) from the pairs' reserves. Paths are direct, or one hop through another listed token when no direct
 * pair exists.
 */
import { type Address, erc20Abi, type Hex, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { ERC20_AMOUNT_OFFSET, type Fill, FillKind, type IntentCall } from '../contracts/types.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import { uniswapV2FactoryAbi, uniswapV2PairAbi, uniswapV2RouterAbi } from './abis.ts';
import { createCalldataEncoder } from './calldata-encoder.ts';
import { createContractRead } from './contract-read.ts';
import { InsufficientLiquidityError, UnsupportedRouteError } from './errors.ts';
import { APPROVE_GAS, SWAP_HOP_GAS } from './gas.ts';
import { ProviderId, type SwapCallParams, type SwapProvider, type SwapQuote } from './types.ts';

/** Uniswap V2 keeps 0.3 % of every hop's input for liquidity providers: out = in × 997 / 1000 at spot. */
const LP_FEE_KEPT_NUMERATOR = 997n;
const LP_FEE_DENOMINATOR = 1_000n;
/** Router02 swap calldata: amount words at 4 and 36, the path offset at 68, `to` at 100, deadline at 132. */
const SWAP_FIRST_AMOUNT_OFFSET = 4;
const SWAP_SECOND_AMOUNT_OFFSET = 36;
const SWAP_TO_OFFSET = 100;

// Compiled once (calldata-encoder.ts says why): a quote with swaps encodes these on every quote.
const encodeApprove = createCalldataEncoder(erc20Abi, 'approve');
// The pool reads, one eth_call each (contract-read.ts says why not readContract).
const readPair = createContractRead(uniswapV2FactoryAbi, 'getPair');
const readReserves = createContractRead(uniswapV2PairAbi, 'getReserves');
const readToken0 = createContractRead(uniswapV2PairAbi, 'token0');
const readAmounts = {
  EXACT_INPUT: createContractRead(uniswapV2RouterAbi, 'getAmountsOut'),
  EXACT_OUTPUT: createContractRead(uniswapV2RouterAbi, 'getAmountsIn'),
};
const encodeSwap = {
  swapExactTokensForETH: createCalldataEncoder(uniswapV2RouterAbi, 'swapExactTokensForETH'),
  swapExactTokensForTokens: createCalldataEncoder(uniswapV2RouterAbi, 'swapExactTokensForTokens'),
  swapTokensForExactETH: createCalldataEncoder(uniswapV2RouterAbi, 'swapTokensForExactETH'),
  swapTokensForExactTokens: createCalldataEncoder(uniswapV2RouterAbi, 'swapTokensForExactTokens'),
};

export interface UniswapV2ProviderDeps {
  /** A public client for the chain (reads only). */
  getClient(chainId: number): PublicClient;
}

export function createUniswapV2Provider(deps: UniswapV2ProviderDeps): SwapProvider {
  // One plan asks for the same pair several times (path search, then reserves): each lookup is read once
  // per provider instance, i.e. per plan (a provider is created for each plan, so nothing goes stale).
  const pairs = new Map<string, Promise<Address | undefined>>();
  function pairOf(chain: ChainConfig, a: Address, b: Address): Promise<Address | undefined> {
    const key = `${chain.chainId}:${a.toLowerCase()}:${b.toLowerCase()}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = lookUpPair(chain, a, b);
      pairs.set(key, pair);
    }
    return pair;
  }

  async function lookUpPair(chain: ChainConfig, a: Address, b: Address): Promise<Address | undefined> {
    const factory = chain.contracts.uniswapV2Factory;
    if (!factory) return undefined;
    const pair = await readPair(deps.getClient(chain.chainId), factory, [a, b]);
    return isAddressEqual(pair, zeroAddress) ? undefined : pair;
  }

  /** Direct pair first, else one intermediate listed ERC-20 with pairs on both sides. */
  async function findPath(chain: ChainConfig, tokenIn: Address, tokenOut: Address) {
    if (!chain.contracts.uniswapV2Router || isAddressEqual(tokenIn, tokenOut)) return undefined;
    if (await pairOf(chain, tokenIn, tokenOut)) return [tokenIn, tokenOut];
    for (const middle of chain.tokens) {
      const via = middle.address;
      if ([zeroAddress, tokenIn, tokenOut].some((t) => isAddressEqual(t, via))) continue;
      const [first, second] = await Promise.all([pairOf(chain, tokenIn, via), pairOf(chain, via, tokenOut)]);
      if (first && second) {
        return [tokenIn, via, tokenOut];
      }
    }
    return undefined;
  }

  /** Output at spot prices (after the LP fee) along the path, from the pairs' reserves. */
  async function spotOut(chain: ChainConfig, path: readonly Address[], amountIn: bigint): Promise<bigint> {
    const hops = path.slice(1).map((to, i) => reservesOf(chain, path[i]!, to));
    let amount = amountIn;
    for (const [reserveIn, reserveOut] of await Promise.all(hops)) {
      amount = (amount * LP_FEE_KEPT_NUMERATOR * reserveOut) / (LP_FEE_DENOMINATOR * reserveIn);
    }
    return amount;
  }

  // Reserves too are read once per pair and plan: prefetch() starts them before the amounts are known.
  const reserves = new Map<string, Promise<[bigint, bigint]>>();
  function reservesOf(chain: ChainConfig, a: Address, b: Address): Promise<[bigint, bigint]> {
    const key = `${chain.chainId}:${a.toLowerCase()}:${b.toLowerCase()}`;
    let read = reserves.get(key);
    if (!read) {
      read = pairReserves(chain, a, b);
      reserves.set(key, read);
    }
    return read;
  }

  async function pairReserves(chain: ChainConfig, a: Address, b: Address): Promise<[bigint, bigint]> {
    const pair = await pairOf(chain, a, b);
    if (!pair) throw new UnsupportedRouteError(`no Uniswap V2 pair for ${a}/${b} on chain ${chain.chainId}`);
    const client = deps.getClient(chain.chainId);
    const [[r0, r1], token0] = await Promise.all([
      readReserves(client, pair, []),
      readToken0(client, pair, []),
    ]);
    return isAddressEqual(token0, a) ? [r0, r1] : [r1, r0];
  }

  async function routerAmounts(
    chain: ChainConfig,
    path: Address[],
    request: SwapQuote['tradeType'],
    amount: bigint,
  ) {
    const router = chain.contracts.uniswapV2Router!;
    try {
      const amounts = await readAmounts[request](deps.getClient(chain.chainId), router, [amount, path]);
      return { amountIn: amounts[0]!, amountOut: amounts[amounts.length - 1]! };
    } catch (cause) {
      // The router reverts (INSUFFICIENT_LIQUIDITY) when a pool cannot produce the output at any price.
      throw new InsufficientLiquidityError(
        `the Uniswap V2 pools on chain ${chain.chainId} cannot ${request === 'EXACT_INPUT' ? 'take' : 'produce'} ${amount} base units along ${path.join(' → ')}`,
        { details: { chainId: chain.chainId, path, amount: amount.toString() }, cause },
      );
    }
  }

  return {
    id: ProviderId.UniswapV2,
    async estimateGas(chain, tokenIn, tokenOut) {
      const path = await findPath(chain, tokenIn, tokenOut);
      return path ? APPROVE_GAS + BigInt(path.length - 1) * SWAP_HOP_GAS : undefined;
    },
    prefetch(chain, tokenIn, tokenOut) {
      const reads = findPath(chain, tokenIn, tokenOut).then((path) =>
        path ? Promise.all(path.slice(1).map((to, i) => reservesOf(chain, path[i]!, to))) : undefined,
      );
      // Failures surface when quote() awaits the same reads; until then they must not count as unhandled.
      reads.catch(() => {});
    },
    async quote(request) {
      const { chain, tokenIn, tokenOut, tradeType, amount } = request;
      const path = await findPath(chain, tokenIn, tokenOut);
      if (!path) {
        throw new UnsupportedRouteError(
          `no Uniswap V2 pool path from ${tokenIn} to ${tokenOut} on chain ${chain.chainId}`,
          { details: { chainId: chain.chainId, tokenIn, tokenOut } },
        );
      }
      // EXACT_INPUT knows the input already, so the spot output is read beside the router's answer.
      const spotEarly = tradeType === 'EXACT_INPUT' ? spotOut(chain, path, amount) : undefined;
      spotEarly?.catch(() => {}); // awaited below; a rejection while the router read runs is not unhandled
      const { amountIn, amountOut } = await routerAmounts(chain, path, tradeType, amount);
      if (amountOut === 0n || amountIn === 0n) {
        throw new InsufficientLiquidityError(
          `the swap of ${amount} base units is too small to produce anything`,
          {
            details: { chainId: chain.chainId, tokenIn, tokenOut, amount: amount.toString() },
          },
        );
      }
      const hops = BigInt(path.length - 1);
      const kept = (amountIn * LP_FEE_KEPT_NUMERATOR ** hops) / LP_FEE_DENOMINATOR ** hops;
      return {
        provider: ProviderId.UniswapV2,
        chainId: chain.chainId,
        tokenIn,
        tokenOut,
        tradeType,
        router: chain.contracts.uniswapV2Router!,
        path,
        amountIn,
        amountOut,
        spotAmountOut: await (spotEarly ?? spotOut(chain, path, amountIn)),
        feeAmount: amountIn - kept,
        gasEstimate: APPROVE_GAS + hops * SWAP_HOP_GAS,
      };
    },
    buildCalls(params) {
      return swapCalls(params);
    },
  };
}

/** approve(router, own balance of tokenIn) + the Router02 swap that fits the trade type and output kind. */
function swapCalls(params: SwapCallParams): IntentCall[] {
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
