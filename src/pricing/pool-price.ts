/**
 * USD prices from Uniswap pools (the devnet, or any chain with a V2 or V3 factory and a USD reference
 * token). The price of a pair is the pools' mid price — no fee and no trade size, which is what a price (as
 * opposed to a quote) means — averaged over the V2 pair and the V3 pools of every fee tier, each weighted by
 * its depth at the price in the quote token: a V2 pair's reserve, a V3 pool's virtual reserve (its in-range
 * liquidity at the current price, L·√P or L/√P). A thin or out-of-range pool barely moves the price.
 *
 * Route: the USD token itself is 1; a token with pools against the USD token is priced from them; the
 * native currency is priced as WETH; any other token is priced through WETH (token/WETH × WETH/USD)
 * when both have pools. Otherwise there is no price.
 */
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  isAddressEqual,
  type PublicClient,
  zeroAddress,
} from 'viem';
import type { ChainConfig, TokenConfig } from '../internal/config-types.ts';
import { FEE_TIER_TICK_SPACING, poolAddress, sortTokens } from '../providers/uniswap-v3-pool-address.ts';
import { RATIO_SCALE } from './constants.ts';

const v3PoolAbi = [
  {
    type: 'function',
    name: 'slot0',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'sqrtPriceX96', type: 'uint160' },
      { name: 'tick', type: 'int24' },
      { name: 'observationIndex', type: 'uint16' },
      { name: 'observationCardinality', type: 'uint16' },
      { name: 'observationCardinalityNext', type: 'uint16' },
      { name: 'feeProtocol', type: 'uint8' },
      { name: 'unlocked', type: 'bool' },
    ],
  },
  {
    type: 'function',
    name: 'liquidity',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint128' }],
  },
] as const;

const Q96 = 2n ** 96n;
const Q192 = 2n ** 192n;

/** One pool's mid price (whole quote tokens per whole base token) and its depth in whole quote tokens. */
interface PoolMid {
  price: number;
  depth: number;
}

const factoryAbi = [
  {
    type: 'function',
    name: 'getPair',
    stateMutability: 'view',
    inputs: [
      { name: 'tokenA', type: 'address' },
      { name: 'tokenB', type: 'address' },
    ],
    outputs: [{ name: 'pair', type: 'address' }],
  },
] as const;

const pairAbi = [
  {
    type: 'function',
    name: 'getReserves',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'reserve0', type: 'uint112' },
      { name: 'reserve1', type: 'uint112' },
      { name: 'blockTimestampLast', type: 'uint32' },
    ],
  },
  {
    type: 'function',
    name: 'token0',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
] as const;

/** The token prices on this chain are quoted against: the flagged one, else the one called USDC. */
export function usdReferenceToken(chain: ChainConfig): TokenConfig | undefined {
  return chain.tokens.find((t) => t.isUsdReference) ?? chain.tokens.find((t) => t.symbol === 'USDC');
}

/** Wrapped native: the configured WETH contract, else the listed token called WETH. */
export function wrappedNative(chain: ChainConfig): Address | undefined {
  return chain.contracts.weth ?? chain.tokens.find((t) => t.symbol === 'WETH')?.address;
}

/** True when this chain can be priced from pools. */
export function hasPoolPricing(chain: ChainConfig): boolean {
  return Boolean(
    (chain.contracts.uniswapV2Factory || chain.contracts.uniswapV3Factory) && usdReferenceToken(chain),
  );
}

export function createPoolPricer(deps: { getClient: (chainId: number) => PublicClient }) {
  async function decimalsOf(chain: ChainConfig, token: Address): Promise<number> {
    const listed = chain.tokens.find((t) => isAddressEqual(t.address, token));
    if (listed) return listed.decimals;
    return deps
      .getClient(chain.chainId)
      .readContract({ address: token, abi: erc20Abi, functionName: 'decimals' });
  }

  /** Whole units of `quote` per whole unit of `base` across their pools, or undefined without a pool. */
  async function midPrice(chain: ChainConfig, base: Address, quote: Address): Promise<number | undefined> {
    const [baseDecimals, quoteDecimals] = await Promise.all([
      decimalsOf(chain, base),
      decimalsOf(chain, quote),
    ]);
    const decimals = { base: baseDecimals, quote: quoteDecimals };
    const pools = await Promise.all([
      v2Mid(chain, base, quote, decimals),
      ...[...FEE_TIER_TICK_SPACING.keys()].map((fee) => v3Mid(chain, base, quote, fee, decimals)),
    ]);
    let weighted = 0;
    let depth = 0;
    for (const pool of pools) {
      if (!pool || !(pool.depth > 0)) continue;
      weighted += pool.price * pool.depth;
      depth += pool.depth;
    }
    return depth > 0 ? weighted / depth : undefined;
  }

  async function v2Mid(
    chain: ChainConfig,
    base: Address,
    quote: Address,
    decimals: { base: number; quote: number },
  ): Promise<PoolMid | undefined> {
    const factory = chain.contracts.uniswapV2Factory;
    if (!factory) return undefined;
    const client = deps.getClient(chain.chainId);
    const pair = await client.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: 'getPair',
      args: [base, quote],
    });
    if (isAddressEqual(pair, zeroAddress)) return undefined;
    const [[reserve0, reserve1], token0] = await Promise.all([
      client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves' }),
      client.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }),
    ]);
    const [baseReserve, quoteReserve] = isAddressEqual(token0, base)
      ? [reserve0, reserve1]
      : [reserve1, reserve0];
    if (baseReserve === 0n || quoteReserve === 0n) return undefined;
    const scaled =
      (quoteReserve * 10n ** BigInt(decimals.base) * RATIO_SCALE) /
      (baseReserve * 10n ** BigInt(decimals.quote));
    return { price: ratio(scaled), depth: whole(quoteReserve, decimals.quote) };
  }

  async function v3Mid(
    chain: ChainConfig,
    base: Address,
    quote: Address,
    fee: number,
    decimals: { base: number; quote: number },
  ): Promise<PoolMid | undefined> {
    const factory = chain.contracts.uniswapV3Factory;
    if (!factory) return undefined;
    const pool = poolAddress(factory, base, quote, fee);
    const client = deps.getClient(chain.chainId);
    const read = (functionName: 'slot0' | 'liquidity') =>
      client.request({
        method: 'eth_call',
        params: [{ to: pool, data: encodeFunctionData({ abi: v3PoolAbi, functionName }) }, 'latest'],
      }) as Promise<Hex>;
    const [slot0, liquidityData] = await Promise.all([read('slot0'), read('liquidity')]);
    // No code at the computed address: no pool at this tier.
    if (slot0 === '0x' || liquidityData === '0x') return undefined;
    const [sqrtPriceX96] = decodeFunctionResult({ abi: v3PoolAbi, functionName: 'slot0', data: slot0 });
    const liquidity = decodeFunctionResult({
      abi: v3PoolAbi,
      functionName: 'liquidity',
      data: liquidityData,
    });
    if (sqrtPriceX96 === 0n || liquidity === 0n) return undefined;
    const baseIsToken0 = sortTokens(base, quote)[0] === base;
    const squared = sqrtPriceX96 * sqrtPriceX96;
    // token1 per token0 in base units is √P² / 2^192; in whole units, scaled by RATIO_SCALE.
    const scaled = baseIsToken0
      ? (squared * 10n ** BigInt(decimals.base) * RATIO_SCALE) / (Q192 * 10n ** BigInt(decimals.quote))
      : (Q192 * 10n ** BigInt(decimals.base) * RATIO_SCALE) / (squared * 10n ** BigInt(decimals.quote));
    // The quote token's virtual reserve: L·√P if it is token1, L/√P if it is token0.
    const virtualQuote = baseIsToken0 ? (liquidity * sqrtPriceX96) / Q96 : (liquidity * Q96) / sqrtPriceX96;
    return { price: ratio(scaled), depth: whole(virtualQuote, decimals.quote) };
  }

  return async function poolPriceUsd(chain: ChainConfig, token: Address): Promise<number | undefined> {
    const usd = usdReferenceToken(chain);
    if (!usd || !hasPoolPricing(chain)) return undefined;
    const weth = wrappedNative(chain);
    const asset = isAddressEqual(token, zeroAddress) ? weth : token;
    if (!asset) return undefined;
    if (isAddressEqual(asset, usd.address)) return 1;
    const direct = await midPrice(chain, asset, usd.address);
    if (direct !== undefined || !weth || isAddressEqual(asset, weth)) return direct;
    const [inWeth, wethUsd] = await Promise.all([
      midPrice(chain, asset, weth),
      midPrice(chain, weth, usd.address),
    ]);
    return inWeth === undefined || wethUsd === undefined ? undefined : inWeth * wethUsd;
  };
}

function ratio(scaled: bigint): number {
  return Number(scaled) / Number(RATIO_SCALE);
}

function whole(amount: bigint, decimals: number): number {
  return Number(amount) / 10 ** decimals;
}
