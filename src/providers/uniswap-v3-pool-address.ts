/**
 * Where a Uniswap V3 pool lives and how its ticks are spaced. A pool's address is the factory's CREATE2 of
 * (token0, token1, fee) with the pool bytecode's hash, so it is computed instead of read: a quote asks only
 * pools that exist for their state. The hash is the one the periphery (position manager, QuoterV2,
 * SwapRouter02) has compiled in, the same on every chain Uniswap deployed V3 to with the canonical factory.
 */
import { type Address, getAddress, type Hex } from 'viem';
import { keccak256 } from '../internal/keccak256.ts';

/** keccak256 of UniswapV3Pool's creation code as npm ships it (test/devnet/uniswap-v3.test.ts holds this). */
export const POOL_INIT_CODE_HASH: Hex = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';

/**
 * The fee tiers the public factories have enabled (fee in pips → tick spacing): 0.01 %, 0.05 %, 0.3 %, 1 %.
 * A quote looks at every one of them.
 */
export const FEE_TIER_TICK_SPACING: ReadonlyMap<number, number> = new Map([
  [100, 1],
  [500, 10],
  [3000, 60],
  [10_000, 200],
]);

export function sortTokens(a: Address, b: Address): [Address, Address] {
  return a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
}

/** CREATE2 (EIP-1014) by the factory with salt keccak256(abi.encode(token0, token1, fee)); checksummed. */
export function poolAddress(factory: Address, tokenA: Address, tokenB: Address, fee: number): Address {
  const [token0, token1] = sortTokens(tokenA, tokenB);
  const word = (hex: string) => hex.toLowerCase().padStart(64, '0');
  const salt = keccak256(`0x${word(token0.slice(2))}${word(token1.slice(2))}${word(fee.toString(16))}`);
  const hash = keccak256(
    `0xff${factory.slice(2).toLowerCase()}${salt.slice(2)}${POOL_INIT_CODE_HASH.slice(2)}`,
  );
  return getAddress(`0x${hash.slice(-40)}`);
}
