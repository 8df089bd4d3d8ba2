/**
 * Seeds the Uniswap V3 pools (devnet/constants.ts V3_POOL_SEED) through the position manager: per pool one
 * transaction, a `multicall` that creates and initialises the pool at the V2 pair's price and mints every
 * position (WETH is paid in ETH, which the position manager wraps; `refundETH` returns the rest). A pool
 * that already has liquidity is left alone, so a resumed setup never adds liquidity twice.
 */
import { type Address, encodeFunctionData, erc20Abi, maxUint256, zeroAddress } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { poolAddress } from '../providers/uniswap-v3-pool-address.ts';
import { positionManagerAbi, uniswapV3PoolAbi } from './abis.ts';
import type { DevnetChainClients } from './chain-clients.ts';
import { type DevnetPoolToken, SETUP_DEADLINE_SECONDS, V3_POOL_SEED } from './constants.ts';
import { mint } from './mint.ts';
import { type PlannedV3Pool, planV3Pool } from './plan-v3-pool.ts';
import { sendAndWait } from './send-and-wait.ts';

export interface SeedUniswapV3Input {
  tokens: Record<DevnetPoolToken, Address>;
  factory: Address;
  positionManager: Address;
}

export async function seedUniswapV3(
  clients: DevnetChainClients,
  input: SeedUniswapV3Input,
  log: Logger,
): Promise<void> {
  const planned = V3_POOL_SEED.map((seed) => planV3Pool(seed, input.tokens));
  const empty: PlannedV3Pool[] = [];
  for (const pool of planned) {
    if (!(await hasLiquidity(clients, poolAddress(input.factory, pool.token0, pool.token1, pool.fee)))) {
      empty.push(pool);
    }
  }
  if (empty.length === 0) return;
  const deployer = clients.walletClient.account.address;
  const weth = input.tokens.WETH;
  // What the positions need of each token: stable tokens are minted and approved once, WETH is sent as ETH.
  const needs = new Map<Address, bigint>();
  for (const pool of empty) {
    for (const p of pool.positions) {
      needs.set(pool.token0, (needs.get(pool.token0) ?? 0n) + p.amount0);
      needs.set(pool.token1, (needs.get(pool.token1) ?? 0n) + p.amount1);
    }
  }
  for (const [token, amount] of needs) {
    if (token === weth) continue;
    await mint(clients, token, deployer, amount);
    await sendAndWait(clients, {
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [input.positionManager, maxUint256],
    });
  }
  const deadline = (await clients.publicClient.getBlock()).timestamp + SETUP_DEADLINE_SECONDS;
  for (const pool of empty) {
    const ethIn = pool.positions.reduce(
      (sum, p) => sum + (pool.token0 === weth ? p.amount0 : 0n) + (pool.token1 === weth ? p.amount1 : 0n),
      0n,
    );
    await sendAndWait(clients, {
      address: input.positionManager,
      abi: positionManagerAbi,
      functionName: 'multicall',
      args: [seedCalls(pool, deployer, deadline)],
      value: ethIn,
    });
    log.debug('V3 pool seeded', { token0: pool.token0, token1: pool.token1, fee: pool.fee });
  }
}

function seedCalls(pool: PlannedV3Pool, recipient: Address, deadline: bigint) {
  const { token0, token1, fee } = pool;
  return [
    encodeFunctionData({
      abi: positionManagerAbi,
      functionName: 'createAndInitializePoolIfNecessary',
      args: [token0, token1, fee, pool.sqrtPriceX96],
    }),
    ...pool.positions.map((p) =>
      encodeFunctionData({
        abi: positionManagerAbi,
        functionName: 'mint',
        args: [
          {
            token0,
            token1,
            fee,
            tickLower: p.tickLower,
            tickUpper: p.tickUpper,
            amount0Desired: p.amount0,
            amount1Desired: p.amount1,
            amount0Min: 0n,
            amount1Min: 0n,
            recipient,
            deadline,
          },
        ],
      }),
    ),
    encodeFunctionData({ abi: positionManagerAbi, functionName: 'refundETH' }),
  ];
}

async function hasLiquidity(clients: DevnetChainClients, pool: Address): Promise<boolean> {
  const code = await clients.publicClient.getCode({ address: pool });
  if (!code || code === '0x' || pool === zeroAddress) return false;
  const liquidity = await clients.publicClient.readContract({
    address: pool,
    abi: uniswapV3PoolAbi,
    functionName: 'liquidity',
  });
  return liquidity > 0n;
}
