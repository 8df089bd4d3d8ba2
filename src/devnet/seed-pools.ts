/**
 * Seeds the Uniswap V2 pools: USDC/DAI at 1:1 and USDC/WETH at 3,000 USDC per ETH. A pool that already
 * holds reserves is left alone, so a resumed setup never adds liquidity twice.
 */
import { type Address, erc20Abi, zeroAddress } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { uniswapV2FactoryAbi, uniswapV2PairAbi, uniswapV2RouterAbi } from './abis.ts';
import type { DevnetPublicClient, DevnetWalletClient } from './chain-clients.ts';
import { POOL_SEED, SETUP_DEADLINE_SECONDS } from './constants.ts';
import { mint } from './mint.ts';
import { sendAndWait } from './send-and-wait.ts';

export interface SeedPoolsInput {
  usdc: Address;
  dai: Address;
  weth: Address;
  factory: Address;
  router: Address;
}

type Clients = { publicClient: DevnetPublicClient; walletClient: DevnetWalletClient };

export async function seedPools(clients: Clients, input: SeedPoolsInput, log: Logger): Promise<void> {
  const deployer = clients.walletClient.account.address;
  const deadline = await setupDeadline(clients.publicClient);

  if (!(await poolHasReserves(clients.publicClient, input.factory, input.usdc, input.dai))) {
    const { usdc, dai } = POOL_SEED.usdcDai;
    await mint(clients, input.usdc, deployer, usdc);
    await mint(clients, input.dai, deployer, dai);
    await approve(clients, input.usdc, input.router, usdc);
    await approve(clients, input.dai, input.router, dai);
    await sendAndWait(clients, {
      address: input.router,
      abi: uniswapV2RouterAbi,
      functionName: 'addLiquidity',
      args: [input.usdc, input.dai, usdc, dai, usdc, dai, deployer, deadline],
    });
    log.debug('pool seeded', { pool: 'USDC/DAI' });
  }

  if (!(await poolHasReserves(clients.publicClient, input.factory, input.usdc, input.weth))) {
    const { usdc, eth } = POOL_SEED.usdcWeth;
    await mint(clients, input.usdc, deployer, usdc);
    await approve(clients, input.usdc, input.router, usdc);
    await sendAndWait(clients, {
      address: input.router,
      abi: uniswapV2RouterAbi,
      functionName: 'addLiquidityETH',
      args: [input.usdc, usdc, usdc, eth, deployer, deadline],
      value: eth,
    });
    log.debug('pool seeded', { pool: 'USDC/WETH' });
  }
}

async function poolHasReserves(
  publicClient: DevnetPublicClient,
  factory: Address,
  tokenA: Address,
  tokenB: Address,
): Promise<boolean> {
  const pair = await publicClient.readContract({
    address: factory,
    abi: uniswapV2FactoryAbi,
    functionName: 'getPair',
    args: [tokenA, tokenB],
  });
  if (pair === zeroAddress) return false;
  const [reserve0, reserve1] = await publicClient.readContract({
    address: pair,
    abi: uniswapV2PairAbi,
    functionName: 'getReserves',
  });
  return reserve0 > 0n && reserve1 > 0n;
}

async function approve(clients: Clients, token: Address, spender: Address, amount: bigint): Promise<void> {
  await sendAndWait(clients, {
    address: token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender, amount],
  });
}

async function setupDeadline(publicClient: DevnetPublicClient): Promise<bigint> {
  const block = await publicClient.getBlock();
  return block.timestamp + SETUP_DEADLINE_SECONDS;
}
