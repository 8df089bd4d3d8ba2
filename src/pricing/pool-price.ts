/**
 * USD prices from Uniswap V2 pool reserves (the devnet, or any chain with a V2 factory and a USD
 * reference token). The price is the pool's mid price: reserves only, no fee and no trade size, which
 * is what a price (as opposed to a quote) means.
 *
 * Route: the USD token itself is 1; a token with a pool against the USD token is priced from it; the
 * native currency is priced as WETH; any other token is priced through WETH (token/WETH × WETH/USD)
 * when both pools exist. Otherwise there is no price.
 */
import { type Address, erc20Abi, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import type { ChainConfig, TokenConfig } from '../internal/config-types.ts';
import { RATIO_SCALE } from './constants.ts';

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
  return Boolean(chain.contracts.uniswapV2Factory && usdReferenceToken(chain));
}

export function createPoolPricer(deps: { getClient: (chainId: number) => PublicClient }) {
  async function decimalsOf(chain: ChainConfig, token: Address): Promise<number> {
    const listed = chain.tokens.find((t) => isAddressEqual(t.address, token));
    if (listed) return listed.decimals;
    return deps
      .getClient(chain.chainId)
      .readContract({ address: token, abi: erc20Abi, functionName: 'decimals' });
  }

  /** Whole units of `quote` per whole unit of `base` in their pool, or undefined without a pool. */
  async function midPrice(chain: ChainConfig, base: Address, quote: Address): Promise<number | undefined> {
    const client = deps.getClient(chain.chainId);
    const pair = await client.readContract({
      address: chain.contracts.uniswapV2Factory!,
      abi: factoryAbi,
      functionName: 'getPair',
      args: [base, quote],
    });
    if (isAddressEqual(pair, zeroAddress)) return undefined;
    const [[reserve0, reserve1], token0, baseDecimals, quoteDecimals] = await Promise.all([
      client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves' }),
      client.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }),
      decimalsOf(chain, base),
      decimalsOf(chain, quote),
    ]);
    const [baseReserve, quoteReserve] = isAddressEqual(token0, base)
      ? [reserve0, reserve1]
      : [reserve1, reserve0];
    if (baseReserve === 0n || quoteReserve === 0n) return undefined;
    const scaled =
      (quoteReserve * 10n ** BigInt(baseDecimals) * RATIO_SCALE) /
      (baseReserve * 10n ** BigInt(quoteDecimals));
    return Number(scaled) / Number(RATIO_SCALE);
  }

  return async function poolPriceUsd(chain: ChainConfig, token: Address): Promise<number | undefined> {
    const usd = usdReferenceToken(chain);
    if (!usd || !chain.contracts.uniswapV2Factory) return undefined;
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
