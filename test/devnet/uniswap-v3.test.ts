/**
 * Uniswap V3 on the devnet: the npm artifacts deployed as shipped at one address on every chain, the pool
 * init-code hash the periphery has compiled in equal to the hash of the pool bytecode the factory deploys,
 * the 0.01 % tier enabled by its owner, and the four seeded pools at the V2 pairs' prices with their
 * liquidity where the seed says.
 */
import { type Address, erc20Abi, getAddress, type Hex, keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV3FactoryAbi,
  uniswapV3PoolAbi,
} from '../../src/devnet/abis.ts';
import { STABLE_FEE_TIER, V3_POOL_SEED } from '../../src/devnet/constants.ts';
import { planV3Pool } from '../../src/devnet/plan-v3-pool.ts';
import { loadUniswapArtifacts } from '../../src/devnet/uniswap-artifacts.ts';
import { POOL_INIT_CODE_HASH, poolAddress } from '../../src/providers/uniswap-v3-pool-address.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';

const V3_CONTRACTS = [
  'uniswapV3Factory',
  'uniswapV3PositionManager',
  'uniswapV3QuoterV2',
  'uniswapV3TickLens',
  'uniswapSwapRouter02',
] as const;
/** Relative difference allowed between a pool price and the V2 pair's: √price rounding only (~1e-15). */
const PRICE_TOLERANCE = 1e-9;

let net: TestDevnet;
beforeAll(async () => {
  net = await startTestDevnet();
});
afterAll(async () => {
  await net?.stop();
});

const contract = (chain: TestDevnetChain, name: string) => chain.entry.contracts[name] as Address;
const tokensOf = (chain: TestDevnetChain) => ({
  USDC: chain.entry.tokens.USDC as Address,
  DAI: chain.entry.tokens.DAI as Address,
  WETH: chain.entry.tokens.WETH as Address,
});

describe('Uniswap V3 on the devnet', () => {
  it('deploys the factory, position manager, QuoterV2, TickLens and SwapRouter02 with one address and one code on every chain', async () => {
    for (const name of V3_CONTRACTS) {
      expect(new Set(net.chains.map((c) => contract(c, name))).size, name).toBe(1);
      const codes = await Promise.all(
        net.chains.map((c) => c.publicClient.getCode({ address: contract(c, name) })),
      );
      expect(codes[0]?.length ?? 0, name).toBeGreaterThan(2);
      expect(new Set(codes).size, name).toBe(1);
    }
  });

  it("has the periphery's pool init-code hash equal to the hash of the pool code the factory deploys", async () => {
    const artifacts = loadUniswapArtifacts();
    expect(keccak256(artifacts.v3Pool.bytecode)).toBe(POOL_INIT_CODE_HASH);
    const chain = net.chains[0]!;
    const code = (name: string) =>
      chain.publicClient.getCode({ address: contract(chain, name) }) as Promise<Hex>;
    // The factory carries the pool's creation code (it deploys pools with it), as shipped.
    expect(await code('uniswapV3Factory')).toContain(artifacts.v3Pool.bytecode.slice(2));
    // The periphery computes pool addresses with the hash compiled in.
    for (const name of ['uniswapV3PositionManager', 'uniswapV3QuoterV2', 'uniswapSwapRouter02']) {
      expect(await code(name), name).toContain(POOL_INIT_CODE_HASH.slice(2));
    }
    // And the pools the factory created are where that hash puts them.
    const factory = contract(chain, 'uniswapV3Factory');
    const tokens = tokensOf(chain);
    for (const seed of V3_POOL_SEED) {
      const created = await chain.publicClient.readContract({
        address: factory,
        abi: uniswapV3FactoryAbi,
        functionName: 'getPool',
        args: [tokens[seed.base], tokens[seed.quote], seed.fee],
      });
      expect(created).toBe(poolAddress(factory, tokens[seed.base], tokens[seed.quote], seed.fee));
    }
  });

  it('enabled the 0.01 % tier by a call of the factory owner (the devnet deployer)', async () => {
    for (const chain of net.chains) {
      const read = <T>(functionName: 'owner' | 'feeAmountTickSpacing', args?: readonly [number]) =>
        chain.publicClient.readContract({
          address: contract(chain, 'uniswapV3Factory'),
          abi: uniswapV3FactoryAbi,
          functionName,
          args,
        } as never) as Promise<T>;
      expect(await read<number>('feeAmountTickSpacing', [STABLE_FEE_TIER.fee])).toBe(
        STABLE_FEE_TIER.tickSpacing,
      );
      expect(getAddress(await read<Address>('owner'))).toBe(net.devnet.accounts.deployer!.address);
    }
  });

  it("seeds every pool at its V2 pair's price, the liquidity in the seeded ranges", async () => {
    for (const chain of net.chains) {
      const tokens = tokensOf(chain);
      for (const seed of V3_POOL_SEED) {
        const label = `${seed.base}/${seed.quote} ${seed.fee} on ${chain.entry.chainId}`;
        const planned = planV3Pool(seed, tokens);
        const pool = poolAddress(
          contract(chain, 'uniswapV3Factory'),
          planned.token0,
          planned.token1,
          seed.fee,
        );
        const [[sqrtPriceX96], liquidity] = await Promise.all([
          chain.publicClient.readContract({ address: pool, abi: uniswapV3PoolAbi, functionName: 'slot0' }),
          chain.publicClient.readContract({
            address: pool,
            abi: uniswapV3PoolAbi,
            functionName: 'liquidity',
          }),
        ]);
        // token1 per token0 in base units, against the V2 pair's reserves (or the seed's ratio without a pair).
        const price = (Number(sqrtPriceX96) / 2 ** 96) ** 2;
        const expected = await referencePrice(chain, planned.token0, planned.token1, seed);
        expect(Math.abs(price / expected - 1), label).toBeLessThan(PRICE_TOLERANCE);
        // Every position is in range at the start: the pool's liquidity is theirs together.
        expect(liquidity, label).toBe(planned.positions.reduce((sum, p) => sum + p.liquidity, 0n));
        for (const [token, planAmount] of [
          [planned.token0, planned.positions.reduce((s, p) => s + p.amount0, 0n)],
          [planned.token1, planned.positions.reduce((s, p) => s + p.amount1, 0n)],
        ] as const) {
          const held = await chain.publicClient.readContract({
            address: token,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [pool],
          });
          // The position manager takes what the liquidity needs: at most the planned amount, a few units less.
          expect(held, label).toBeLessThanOrEqual(planAmount);
          expect(planAmount - held, label).toBeLessThan(planAmount / 1_000_000n + 10n);
        }
      }
    }
  });
});

/** token1 per token0 (base units) of the chain's V2 pair of the two tokens, or the seed's ratio without one. */
async function referencePrice(
  chain: TestDevnetChain,
  token0: Address,
  token1: Address,
  seed: (typeof V3_POOL_SEED)[number],
): Promise<number> {
  const pair = await chain.publicClient.readContract({
    address: contract(chain, 'uniswapV2Factory'),
    abi: uniswapV2FactoryAbi,
    functionName: 'getPair',
    args: [token0, token1],
  });
  if (BigInt(pair) !== 0n) {
    const [r0, r1] = await chain.publicClient.readContract({
      address: pair,
      abi: uniswapV2PairAbi,
      functionName: 'getReserves',
    });
    return Number(r1) / Number(r0);
  }
  const baseIsToken0 = tokensOf(chain)[seed.base].toLowerCase() === token0.toLowerCase();
  const [base, quote] = [Number(seed.price.base), Number(seed.price.quote)];
  return baseIsToken0 ? quote / base : base / quote;
}
