/**
 * Seeds the Uniswap V2 pools: USDC/DAI at 1:1 and USDC/WETH at 3,000 USDC per ETH. A pool that already
 * holds reserves is left alone, so a resumed setup never adds liquidity twice. The caller then starts each
 * pool's price accumulators (startAccumulators), after whatever else it seeds: their wait for the next
 * second overlaps that work.
 */
import { type Address, erc20Abi, numberToHex, zeroAddress } from 'viem';
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

/** At most this long (ms) for the wall clock to reach the second after seeding (one second, and some slack). */
const MAX_ACCUMULATOR_WAIT_MS = 1_100;

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

/**
 * A new pair's price accumulators are 0 until its first update in a later second than the one before. The
 * first swap that does it writes both from zero (~44,000 gas more than the same swap in the same second),
 * so a swap estimated in its pool's seeding second and mined a second later ran out of gas even with the
 * 25 % margin (it failed the devnet's own swap test now and then). One sync() in the next second writes
 * them; later swaps only change them (~5,000 gas each, inside the margin). Idempotent: a pool whose
 * accumulator is already written is left alone.
 */
export async function startAccumulators(clients: Clients, input: SeedPoolsInput, log: Logger): Promise<void> {
  const { publicClient } = clients;
  const pairs: Address[] = [];
  let timestamp = 0n;
  for (const other of [input.dai, input.weth]) {
    const pair = await publicClient.readContract({
      address: input.factory,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [input.usdc, other],
    });
    const accumulated = await publicClient.readContract({
      address: pair,
      abi: uniswapV2PairAbi,
      functionName: 'price0CumulativeLast',
    });
    if (accumulated !== 0n) continue;
    pairs.push(pair);
    const [, , lastUpdate] = await publicClient.readContract({
      address: pair,
      abi: uniswapV2PairAbi,
      functionName: 'getReserves',
    });
    if (BigInt(lastUpdate) > timestamp) timestamp = BigInt(lastUpdate);
  }
  if (pairs.length === 0) return;
  // The sync must land in a later second than the pairs' seeding block. anvil stamps an automined block with
  // the wall clock's second, so wait for the next one (setup work done since the seeding may already have
  // taken it there); setting the next block's time instead would leave the chain's clock ahead of the wall
  // clock (receipts showed transactions mined after the intent finished).
  const nextSecondMs = (Number(timestamp) + 1) * 1000;
  const waitMs = Math.min(nextSecondMs - Date.now(), MAX_ACCUMULATOR_WAIT_MS);
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  if (Date.now() < nextSecondMs)
    // The chain's clock runs ahead of this one (a loaded state, an earlier time jump): move its next block.
    await publicClient.request({
      method: 'evm_setNextBlockTimestamp',
      params: [numberToHex(timestamp + 1n)],
    } as never);
  for (const pair of pairs)
    await sendAndWait(clients, { address: pair, abi: uniswapV2PairAbi, functionName: 'sync' });
  log.debug('pool accumulators started', { pairs });
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
