/**
 * Every route kind the plan builder supports, built against the devnet and then executed by hand the way the
 * engine will (support/run-plan.ts), with the balances that matter checked on-chain at the end. Swaps are
 * pinned to UNISWAP_V2 here, so every kind runs through Router02; test/routing runs the kinds with the
 * best route across V2 and V3 (AUTO), where most of them go through SwapRouter02.
 */
import { type Address, encodeFunctionData, type Hex, parseEther, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accruingVaultAbi } from '../../../src/contracts/abis.generated.ts';
import { AMOUNT_PLACEHOLDER } from '../../../src/intents/plan/constants.ts';
import type { PlanDeps, PlanRequest } from '../../../src/intents/plan/types.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../harness/devnet.ts';
import { balanceOf } from './support/balances.ts';
import { buildAndRunPlan } from './support/build-and-run.ts';
import { devnetPlanDeps } from './support/devnet-plan-deps.ts';

const usdc = (n: string) => parseUnits(n, 6);
const dai = (n: string) => parseUnits(n, 18);
const SERVICE_FEE_BPS = 25n;

let net: TestDevnet;
let deps: PlanDeps;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  net = await startTestDevnet();
  [alpha, beta, gamma] = net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = net.devnet.accounts.user.address;
  deps = devnetPlanDeps(net);
}, 60_000);
afterAll(async () => {
  await net?.stop();
});

const fresh = (): Address => privateKeyToAddress(generatePrivateKey());
const token = (chain: TestDevnetChain, symbol: string): Address => chain.entry.tokens[symbol]!;

function request(p: {
  from: TestDevnetChain;
  fromToken: string;
  to: TestDevnetChain;
  toToken: string;
  recipient?: Address;
  amountIn?: bigint;
  amountOut?: bigint;
  extra?: Partial<PlanRequest>;
}): PlanRequest {
  return {
    ownerAddress: user,
    originChainId: p.from.entry.chainId,
    originTokenAddress: token(p.from, p.fromToken),
    destinationChainId: p.to.entry.chainId,
    destinationTokenAddress: token(p.to, p.toToken),
    destinationToAddress: p.recipient,
    originTokenAmount: p.amountIn,
    destinationTokenAmount: p.amountOut,
    serviceFeeBps: SERVICE_FEE_BPS,
    swapProvider: 'UNISWAP_V2',
    ...p.extra,
  };
}

const buildAndRun = (req: PlanRequest, recipient: Address) => buildAndRunPlan(net, deps, req, recipient);

describe('same chain', () => {
  it('transfers the same token, exact input, fees to the collector', async () => {
    const recipient = fresh();
    const { plan, received } = await buildAndRun(
      request({
        from: alpha,
        fromToken: 'USDC',
        to: alpha,
        toToken: 'USDC',
        recipient,
        amountIn: usdc('100'),
      }),
      recipient,
    );
    expect(plan.kind).toBe('same-chain');
    expect(plan.destination).toBeUndefined();
    expect(received).toBe(usdc('100') - plan.fees.collectorFee);
    expect(plan.fees.serviceFee).toBe((usdc('100') * SERVICE_FEE_BPS) / 10_000n);
  });

  it('swaps USDC to DAI, exact input', async () => {
    const recipient = fresh();
    const { plan } = await buildAndRun(
      request({
        from: alpha,
        fromToken: 'USDC',
        to: alpha,
        toToken: 'DAI',
        recipient,
        amountIn: usdc('250'),
      }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['UNISWAP_V2']);
    expect(plan.amounts.toAmount).toBeGreaterThan(plan.amounts.toAmountMin);
  });

  it('swaps DAI to exactly 40 USDC, exact output under a cap', async () => {
    const recipient = fresh();
    const { plan, received } = await buildAndRun(
      request({
        from: beta,
        fromToken: 'DAI',
        to: beta,
        toToken: 'USDC',
        recipient,
        amountIn: dai('1000'),
        amountOut: usdc('40'),
        extra: { tradeType: 'EXACT_OUTPUT' },
      }),
      recipient,
    );
    expect(plan.tradeType).toBe('EXACT_OUTPUT');
    expect(received).toBe(usdc('40'));
  });

  it('pays native ETH in and delivers DAI (wrap, then swap through WETH/USDC/DAI)', async () => {
    const recipient = fresh();
    const { plan } = await buildAndRun(
      request({
        from: gamma,
        fromToken: 'ETH',
        to: gamma,
        toToken: 'DAI',
        recipient,
        amountIn: parseEther('0.1'),
      }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['WETH', 'UNISWAP_V2']);
  });
});

describe('cross chain', () => {
  it('moves USDC alpha → beta, exact input: recipient gets the order output, the solver is repaid', async () => {
    const recipient = fresh();
    const { plan, received } = await buildAndRun(
      request({
        from: alpha,
        fromToken: 'USDC',
        to: beta,
        toToken: 'USDC',
        recipient,
        amountIn: usdc('500'),
      }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['SWITCHYARD']);
    expect(received).toBe(plan.order!.outputAmount);
    expect(plan.order!.inputAmount - plan.order!.outputAmount).toBe(plan.fees.providerFee);
  });

  it('moves exactly 75 USDC beta → gamma, exact output', async () => {
    const recipient = fresh();
    const { received } = await buildAndRun(
      request({
        from: beta,
        fromToken: 'USDC',
        to: gamma,
        toToken: 'USDC',
        recipient,
        amountOut: usdc('75'),
      }),
      recipient,
    );
    expect(received).toBe(usdc('75'));
  });

  it('swaps on the origin: DAI on alpha → USDC on beta, exact input; the swap surplus returns to the owner', async () => {
    const recipient = fresh();
    const usdcBefore = await balanceOf(alpha, token(alpha, 'USDC'), user);
    const { plan } = await buildAndRun(
      request({ from: alpha, fromToken: 'DAI', to: beta, toToken: 'USDC', recipient, amountIn: dai('300') }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['UNISWAP_V2', 'SWITCHYARD']);
    // The lock was sized at the swap's slippage minimum; what the swap produced above it came back.
    expect(await balanceOf(alpha, token(alpha, 'USDC'), user)).toBeGreaterThan(usdcBefore);
  });

  it('swaps on the destination: USDC on alpha → exactly 120 DAI on beta, exact output', async () => {
    const recipient = fresh();
    const { plan, received } = await buildAndRun(
      request({ from: alpha, fromToken: 'USDC', to: beta, toToken: 'DAI', recipient, amountOut: dai('120') }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['SWITCHYARD', 'UNISWAP_V2']);
    expect(received).toBe(dai('120'));
  });

  it('swaps on both sides: DAI on gamma → WETH on alpha, exact input', async () => {
    const recipient = fresh();
    const { plan } = await buildAndRun(
      request({ from: gamma, fromToken: 'DAI', to: alpha, toToken: 'WETH', recipient, amountIn: dai('600') }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['UNISWAP_V2', 'SWITCHYARD', 'UNISWAP_V2']);
  });

  it('takes native ETH in and delivers native ETH out (wrap, bridge WETH, unwrap)', async () => {
    const recipient = fresh();
    const { plan, received } = await buildAndRun(
      request({
        from: alpha,
        fromToken: 'ETH',
        to: gamma,
        toToken: 'ETH',
        recipient,
        amountIn: parseEther('0.5'),
      }),
      recipient,
    );
    expect(plan.routeProviders).toEqual(['WETH', 'SWITCHYARD', 'WETH']);
    expect(received).toBe(plan.order!.outputAmount);
  });

  it('delivers native ETH after a destination swap: USDC on beta → exactly 0.02 ETH on alpha', async () => {
    const recipient = fresh();
    const { received } = await buildAndRun(
      request({
        from: beta,
        fromToken: 'USDC',
        to: alpha,
        toToken: 'ETH',
        recipient,
        amountOut: parseEther('0.02'),
      }),
      recipient,
    );
    expect(received).toBe(parseEther('0.02'));
  });

  it('deposits what arrived into an ERC-4626 vault on gamma (placeholder amount word)', async () => {
    const vault = gamma.entry.contracts.usdcVault!;
    const receiver = fresh();
    const data = encodeFunctionData({
      abi: accruingVaultAbi,
      functionName: 'deposit',
      args: [BigInt(AMOUNT_PLACEHOLDER), receiver],
    }) as Hex;
    const req = request({
      from: alpha,
      fromToken: 'DAI',
      to: gamma,
      toToken: 'USDC',
      recipient: vault,
      amountIn: dai('200'),
      extra: { destinationCallData: data, destinationApproveAddress: vault, destinationCallValue: 0n },
    });
    const assetsBefore = await gamma.publicClient.readContract({
      address: vault,
      abi: accruingVaultAbi,
      functionName: 'totalAssets',
    });
    // The recipient of the USDC is the vault; the user-facing result is the receiver's shares.
    const { plan } = await buildAndRun(req, vault);
    const shares = await gamma.publicClient.readContract({
      address: vault,
      abi: accruingVaultAbi,
      functionName: 'balanceOf',
      args: [receiver],
    });
    expect(shares).toBeGreaterThan(0n);
    const assets = await gamma.publicClient.readContract({
      address: vault,
      abi: accruingVaultAbi,
      functionName: 'convertToAssets',
      args: [shares],
    });
    // Rounding in the vault's favour may cost a base unit.
    expect(assets + 1n).toBeGreaterThanOrEqual(plan.order!.outputAmount);
    const assetsAfter = await gamma.publicClient.readContract({
      address: vault,
      abi: accruingVaultAbi,
      functionName: 'totalAssets',
    });
    expect(assetsAfter - assetsBefore).toBeGreaterThanOrEqual(plan.order!.outputAmount);
  });
});
