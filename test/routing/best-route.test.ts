/**
 * The best route across Uniswap V2 and V3 on the devnet, built with the plan builder and executed by hand the
 * way the engine will (test/intents/plan/support/build-and-run.ts checks balances, fees, gas and empty
 * accounts for every one). The amounts come from the seeded depths (src/devnet/constants.ts): V2's pair holds
 * 3,000,000 USDC against 1,000 WETH; V3's 0.05 % WETH/USDC pool holds 300,000 USDC within ±6 % of the price,
 * its 0.3 % pool 900,000 within ±80 %. So a swap of a few dollars saves less in V3's lower fee than
 * SwapRouter02's extra gas costs (V2 wins), a few WETH save hundreds of dollars in V3 (V3 wins), and 100 WETH
 * move even the 0.05 % pool by percents (a split wins).
 */
import {
  type Address,
  erc20Abi,
  maxUint256,
  parseAbi,
  parseEther,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintableTokenAbi, uniswapV2RouterAbi } from '../../src/devnet/abis.ts';
import { POOL_SEED } from '../../src/devnet/constants.ts';
import { sendAndWait } from '../../src/devnet/send-and-wait.ts';
import { loadUniswapArtifacts } from '../../src/devnet/uniswap-artifacts.ts';
import type { PlanDeps, PlanRequest, SwapRouteSummary } from '../../src/intents/plan/types.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import { buildAndRunPlan } from '../intents/plan/support/build-and-run.ts';
import { devnetPlanDeps } from '../intents/plan/support/devnet-plan-deps.ts';

const SERVICE_FEE_BPS = 25n;
/**
 * ~6 USD of WETH: V3's 0.25 % lower fee saves ~0.015 USD, SwapRouter02's extra 20,000 gas costs more at the
 * quote's gas price (the devnet's base fee × 3/2 plus its tip).
 */
const SMALL_WETH = parseEther('0.002');
/** ~15,000 USD: 1.7 % of V2's pair moves it ~1 %, V3's 0.05 % pool barely (its depth is ~40× within ±1.5 %). */
const MEDIUM_WETH = parseEther('5');
/** ~300,000 USD: as much as the 0.05 % pool holds within ±6 %; no single pool gives what three give together. */
const LARGE_WETH = parseEther('100');

const swapEventsAbi = parseAbi([
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
]);

let net: TestDevnet;
let deps: PlanDeps;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  net = await startTestDevnet();
  [alpha, beta] = net.chains as [TestDevnetChain, TestDevnetChain];
  user = net.devnet.accounts.user.address;
  deps = devnetPlanDeps(net);
  // The user pays for the large orders in ETH and WETH: 1,000 ETH, 300 of it wrapped.
  await alpha.testClient.setBalance({ address: user, value: parseEther('1000') });
  const wallet = alpha.walletFor('user');
  const weth = token(alpha, 'WETH');
  await sendAndWait(
    { publicClient: alpha.publicClient, walletClient: wallet },
    {
      address: weth,
      abi: parseAbi(['function deposit() payable']),
      functionName: 'deposit',
      value: parseEther('300'),
    },
  );
}, 120_000);
afterAll(async () => {
  await net?.stop();
});

const fresh = (): Address => privateKeyToAddress(generatePrivateKey());
const token = (chain: TestDevnetChain, symbol: string): Address =>
  symbol === 'ETH' ? zeroAddress : (chain.entry.tokens[symbol] as Address);

function request(
  from: TestDevnetChain,
  fromToken: string,
  to: TestDevnetChain,
  toToken: string,
  p: {
    recipient: Address;
    amountIn?: bigint;
    amountOut?: bigint;
  },
): PlanRequest {
  return {
    ownerAddress: user,
    originChainId: from.entry.chainId,
    originTokenAddress: token(from, fromToken),
    destinationChainId: to.entry.chainId,
    destinationTokenAddress: token(to, toToken),
    destinationToAddress: p.recipient,
    originTokenAmount: p.amountIn,
    destinationTokenAmount: p.amountOut,
    ...(p.amountOut !== undefined && { tradeType: 'EXACT_OUTPUT' as const }),
    serviceFeeBps: SERVICE_FEE_BPS,
  };
}

/** What Uniswap V2's router says one path gives for `amountIn` (the chain's own answer). */
async function v2Out(chain: TestDevnetChain, path: Address[], amountIn: bigint): Promise<bigint> {
  const amounts = await chain.publicClient.readContract({
    address: chain.entry.contracts.uniswapV2Router as Address,
    abi: uniswapV2RouterAbi,
    functionName: 'getAmountsOut',
    args: [amountIn, path],
  });
  return amounts.at(-1)!;
}

/** What QuoterV2 says a V3 path gives for `amountIn`, or 0 when the pools cannot take it. */
async function v3Out(
  chain: TestDevnetChain,
  tokens: readonly Address[],
  fees: readonly number[],
  amountIn: bigint,
) {
  let path = tokens[0]!.toLowerCase();
  fees.forEach((fee, i) => {
    path += fee.toString(16).padStart(6, '0') + tokens[i + 1]!.slice(2).toLowerCase();
  });
  try {
    const { result } = await chain.publicClient.simulateContract({
      address: chain.entry.contracts.uniswapV3QuoterV2 as Address,
      abi: loadUniswapArtifacts().quoterV2.abi,
      functionName: 'quoteExactInput',
      args: [path, amountIn],
    } as never);
    return (result as unknown as [bigint])[0];
  } catch {
    return 0n;
  }
}

/**
 * Each part's on-chain amounts from the pools' Swap events in the transaction: what its last pool paid out
 * and what its first pool took in (positive = into the pool).
 */
function partsOnChain(receipt: TransactionReceipt, route: SwapRouteSummary) {
  const events = parseEventLogs({ abi: swapEventsAbi, logs: receipt.logs });
  const flows = (pool: Address) => {
    const found = events.filter((e) => e.address.toLowerCase() === pool.toLowerCase());
    expect(found, pool).toHaveLength(1);
    const args = found[0]!.args as unknown as Record<string, bigint>;
    // V3: signed pool deltas; V2: ins and outs. As [token0, token1] into the pool.
    if ('amount0' in args) return [args.amount0!, args.amount1!];
    return [args.amount0In! - args.amount0Out!, args.amount1In! - args.amount1Out!];
  };
  return route.parts.map((part) => {
    const first = flows(part.pools[0]!);
    const last = flows(part.pools.at(-1)!);
    const inIsToken0 = part.tokens[0]!.toLowerCase() < part.tokens[1]!.toLowerCase();
    const outIsToken0 = part.tokens.at(-1)!.toLowerCase() < part.tokens.at(-2)!.toLowerCase();
    return { paidIn: inIsToken0 ? first[0]! : first[1]!, paidOut: -(outIsToken0 ? last[0]! : last[1]!) };
  });
}

describe('the best route across Uniswap V2 and V3', () => {
  it('takes V2 where it gives more: a few dollars of WETH → USDC (V3 gives more before gas, less after)', async () => {
    const recipient = fresh();
    const path: Address[] = [token(alpha, 'WETH'), token(alpha, 'USDC')];
    const { plan, received } = await buildAndRunPlan(
      net,
      deps,
      request(alpha, 'WETH', alpha, 'USDC', { recipient, amountIn: SMALL_WETH }),
      recipient,
      async (quoted) => {
        const [route] = quoted.swapRoutes!;
        // The chain agrees: the V2 pair pays what the quote says…
        expect(await v2Out(alpha, path, route!.amountIn)).toBe(route!.amountOut);
        // …and the 0.05 % pool would pay more for the same input, but its route's extra gas costs more.
        expect(await v3Out(alpha, path, [500], route!.amountIn)).toBeGreaterThan(route!.amountOut);
      },
    );
    expect(plan.routeProviders).toEqual(['UNISWAP_V2']);
    const [route] = plan.swapRoutes!;
    expect(received).toBe(plan.amounts.toAmount);
    const v3 = route!.alternatives.find((a) => a.parts.length === 1 && a.parts[0]!.fees[0] === 500)!;
    expect(v3.gasEstimate).toBeGreaterThan(route!.gasEstimate);
    expect(v3.amountOut).toBeLessThan(route!.amountOut);
  });

  it("takes V3 where it gives more: 5 WETH → USDC through the 0.05 % pool, more than V2's pair gives", async () => {
    const recipient = fresh();
    const { plan, received } = await buildAndRunPlan(
      net,
      deps,
      request(alpha, 'WETH', alpha, 'USDC', { recipient, amountIn: MEDIUM_WETH }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['UNISWAP_V3']);
    const [route] = plan.swapRoutes!;
    expect(route!.parts).toHaveLength(1);
    expect(route!.parts[0]!.fees).toEqual([500]);
    // Beyond the LP fee difference (0.25 % of ~15,000 USD), the V2 pair's depth costs ~0.5 %: V3 gives
    // over 100 USD more than the pair, as it stands and as it was seeded.
    const v2 = await v2Out(alpha, [token(alpha, 'WETH'), token(alpha, 'USDC')], route!.amountIn);
    const { usdc: seededUsdc, eth: seededWeth } = POOL_SEED.usdcWeth;
    const v2Seeded = (route!.amountIn * 997n * seededUsdc) / (seededWeth * 1000n + route!.amountIn * 997n);
    expect(received).toBeGreaterThan(v2 + parseUnits('100', 6));
    expect(received).toBeGreaterThan(v2Seeded + parseUnits('100', 6));
  });

  it('takes two hops through USDC when the direct pools are thin: 50,000 DAI → WETH', async () => {
    // A thin V2 DAI/WETH pair next to the thin seeded V3 WETH/DAI pool: both direct pools lose to DAI → USDC → WETH.
    await addV2Pair(beta, 'DAI', parseUnits('30000', 18), parseEther('10'));
    const amountIn = parseUnits('50000', 18);
    await mintTo(beta, 'DAI', user, amountIn);
    const recipient = fresh();
    const { plan, received } = await buildAndRunPlan(
      net,
      deps,
      request(beta, 'DAI', beta, 'WETH', { recipient, amountIn }),
      recipient,
    );
    const [route] = plan.swapRoutes!;
    for (const part of route!.parts) expect(part.tokens[1]).toBe(token(beta, 'USDC'));
    const [dai, weth] = [token(beta, 'DAI'), token(beta, 'WETH')];
    const directV2 = await v2Out(beta, [dai, weth], route!.amountIn);
    const directV3 = await v3Out(beta, [dai, weth], [3000], route!.amountIn);
    expect(received).toBeGreaterThan(directV2);
    expect(received).toBeGreaterThan(directV3);
    expect(route!.alternatives.some((a) => a.parts.some((p) => p.tokens.length === 2))).toBe(true);
  });

  it('splits 100 ETH → USDC across pools, more than the best single pool gives, every part at or above its minimum', async () => {
    const recipient = fresh();
    const [weth, usdc] = [token(alpha, 'WETH'), token(alpha, 'USDC')];
    const singles: bigint[] = [];
    const { plan, run, received } = await buildAndRunPlan(
      net,
      deps,
      request(alpha, 'ETH', alpha, 'USDC', { recipient, amountIn: LARGE_WETH }),
      recipient,
      async (quoted) => {
        // Every single pool's own answer for the split's whole input, as the quote saw the pools.
        const amountIn = quoted.swapRoutes![0]!.amountIn;
        singles.push(
          await v2Out(alpha, [weth, usdc], amountIn),
          await v3Out(alpha, [weth, usdc], [500], amountIn),
          await v3Out(alpha, [weth, usdc], [3000], amountIn),
        );
      },
    );
    expect(plan.routeProviders[0]).toBe('WETH');
    expect(plan.routeProviders).toContain('UNISWAP_V3');
    const [route] = plan.swapRoutes!;
    expect(route!.parts.length).toBeGreaterThanOrEqual(2);
    // Each of them, without the split's extra gas, gives less than the split did.
    expect(singles).toHaveLength(3);
    for (const single of singles) expect(received).toBeGreaterThan(single);
    for (const alternative of route!.alternatives)
      expect(route!.amountOut).toBeGreaterThan(alternative.amountOut);
    // Executed as quoted: each part's pools paid at least the part's minimum (here exactly the quote).
    const onChain = partsOnChain(run.origin, route!);
    route!.parts.forEach((part, i) => {
      expect(onChain[i]!.paidIn).toBe(part.amountIn);
      expect(onChain[i]!.paidOut).toBeGreaterThanOrEqual(part.limit);
      expect(onChain[i]!.paidOut).toBe(part.amountOut);
    });
    expect(route!.parts.reduce((sum, p) => sum + p.limit, 0n)).toBe(plan.amounts.toAmountMin);
    // The fees of a leg split across two protocols still add up, one entry per provider.
    const f = plan.fees;
    expect(f.providerFeesUsd).toHaveLength(plan.routeProviders.length);
    expect(f.providerFeesUsd.reduce((a, b) => a + b, 0)).toBeCloseTo(f.providerFeeUsd, 6);
    expect(f.totalFeeAmount).toBe(f.gasFee + f.providerFee + f.serviceFee);
  });

  it('buys exactly 250,000 USDC with WETH through the same planner, split, each part within its input limit', async () => {
    const recipient = fresh();
    const wanted = parseUnits('250000', 6);
    const { plan, run, received } = await buildAndRunPlan(
      net,
      deps,
      request(alpha, 'WETH', alpha, 'USDC', { recipient, amountIn: parseEther('150'), amountOut: wanted }),
      recipient,
    );
    expect(received).toBe(wanted);
    const [route] = plan.swapRoutes!;
    expect(route!.parts.length).toBeGreaterThanOrEqual(2);
    expect(route!.parts.reduce((sum, p) => sum + p.amountOut, 0n)).toBe(wanted);
    const onChain = partsOnChain(run.origin, route!);
    route!.parts.forEach((part, i) => {
      expect(onChain[i]!.paidOut).toBe(part.amountOut);
      expect(onChain[i]!.paidIn).toBeLessThanOrEqual(part.limit);
    });
  });

  it('delivers native ETH after a V3 swap: 20,000 USDC → ETH (the router unwraps to the recipient)', async () => {
    const recipient = fresh();
    await mintTo(alpha, 'USDC', user, parseUnits('20000', 6));
    const { plan, received } = await buildAndRunPlan(
      net,
      deps,
      request(alpha, 'USDC', alpha, 'ETH', { recipient, amountIn: parseUnits('20000', 6) }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['UNISWAP_V3']);
    expect(received).toBeGreaterThanOrEqual(plan.amounts.toAmountMin);
  });

  it('buys exactly 2 ETH with USDC through V3, the router unwrapping to the recipient', async () => {
    const recipient = fresh();
    await mintTo(alpha, 'USDC', user, parseUnits('10000', 6));
    const { plan, received } = await buildAndRunPlan(
      net,
      deps,
      request(alpha, 'USDC', alpha, 'ETH', {
        recipient,
        amountIn: parseUnits('10000', 6),
        amountOut: parseEther('2'),
      }),
      recipient,
    );
    expect(plan.routeProviders).toContain('UNISWAP_V3');
    // At least the 2 ETH asked for. A V2 part through SwapRouter02 swaps what its pair received, and the input
    // V2's getAmountsIn rounds up by a base unit of USDC, worth ~3·10^8 wei: no more than that comes on top.
    expect(received).toBeGreaterThanOrEqual(parseEther('2'));
    expect(received - parseEther('2')).toBeLessThan(10n ** 9n);
  });

  it('swaps through V3 at both ends of a cross-chain route: WETH on alpha → DAI on beta', async () => {
    const recipient = fresh();
    const { plan, received } = await buildAndRunPlan(
      net,
      deps,
      request(alpha, 'WETH', beta, 'DAI', { recipient, amountIn: MEDIUM_WETH }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['UNISWAP_V3', 'SWITCHYARD', 'UNISWAP_V3']);
    expect(plan.swapRoutes!.map((r) => r.leg)).toEqual(['origin', 'destination']);
    expect(received).toBeGreaterThanOrEqual(plan.amounts.toAmountMin);
  });
});

async function mintTo(chain: TestDevnetChain, symbol: string, to: Address, amount: bigint): Promise<void> {
  const clients = { publicClient: chain.publicClient, walletClient: chain.walletFor('deployer') };
  await sendAndWait(clients, {
    address: token(chain, symbol),
    abi: mintableTokenAbi,
    functionName: 'mint',
    args: [to, amount],
  });
}

/** A V2 pair of `symbol` and WETH with the given reserves, from the deployer. */
async function addV2Pair(chain: TestDevnetChain, symbol: string, amount: bigint, eth: bigint): Promise<void> {
  const wallet = chain.walletFor('deployer');
  const clients = { publicClient: chain.publicClient, walletClient: wallet };
  const router = chain.entry.contracts.uniswapV2Router as Address;
  await mintTo(chain, symbol, wallet.account.address, amount);
  await sendAndWait(clients, {
    address: token(chain, symbol),
    abi: erc20Abi,
    functionName: 'approve',
    args: [router, maxUint256],
  });
  const deadline = (await chain.publicClient.getBlock()).timestamp + 600n;
  await sendAndWait(clients, {
    address: router,
    abi: uniswapV2RouterAbi,
    functionName: 'addLiquidityETH',
    args: [token(chain, symbol), amount, amount, eth, wallet.account.address, deadline],
    value: eth,
  });
}
