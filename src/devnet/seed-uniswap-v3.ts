/**
 * Seeds the Uniswap V3 pools (devnet/constants.ts V3_POOL_SEED) through the position manager in one
 * transaction: a `multicall` that creates and initialises every pool at its V2 pair's price and mints every
 * position (WETH is paid in ETH, which the position manager wraps; `refundETH` returns the rest). The
 * transaction seeds all pools or none, so a setup resumed after a crash seeds again exactly when the position
 * manager has minted nothing yet.
 */
import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { positionManagerAbi } from './abis.ts';
import type { DevnetChainClients } from './chain-clients.ts';
import { type DevnetPoolToken, SETUP_DEADLINE_SECONDS, V3_POOL_SEED } from './constants.ts';
import { mint } from './mint.ts';
import { type PlannedV3Pool, planV3Pool } from './plan-v3-pool.ts';
import { sendAndWait } from './send-and-wait.ts';

export interface SeedUniswapV3Input {
  tokens: Record<DevnetPoolToken, Address>;
  positionManager: Address;
}

export async function seedUniswapV3(
  clients: DevnetChainClients,
  input: SeedUniswapV3Input,
  log: Logger,
): Promise<void> {
  const minted = await clients.publicClient.readContract({
    address: input.positionManager,
    abi: positionManagerAbi,
    functionName: 'totalSupply',
  });
  if (minted > 0n) return;
  const pools = V3_POOL_SEED.map((seed) => planV3Pool(seed, input.tokens));
  const deployer = clients.walletClient.account.address;
  const weth = input.tokens.WETH;
  // What the positions need of each token: stable tokens are minted and approved once, WETH is sent as ETH.
  const needs = new Map<Address, bigint>();
  for (const pool of pools) {
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
  await sendAndWait(clients, {
    address: input.positionManager,
    abi: positionManagerAbi,
    functionName: 'multicall',
    args: [
      [
        ...pools.flatMap((pool) => seedCalls(pool, deployer, deadline)),
        encodeFunctionData({ abi: positionManagerAbi, functionName: 'refundETH' }),
      ],
    ],
    value: needs.get(weth) ?? 0n,
  });
  log.debug('V3 pools seeded', { pools: pools.length });
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
  ];
}
