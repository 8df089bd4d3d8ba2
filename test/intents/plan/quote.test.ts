/**
 * What a quote promises before anything runs: fees and USD figures that add up, the five price-impact parts,
 * gas fee options, deadlines, and a named error for every request that cannot be routed.
 */
import { type Address, parseEther, parseUnits, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExecutionPlan, inferTradeType } from '../../../src/intents/plan/build-execution-plan.ts';
import { EXECUTE_WINDOW_SECONDS, QUOTE_TTL_SECONDS } from '../../../src/intents/plan/constants.ts';
import { findAmountWords } from '../../../src/intents/plan/destination-call.ts';
import {
  ExceedsMaximumError,
  InsufficientLiquidityError,
  InvalidAmountError,
  MissingPriceError,
  UnsupportedChainError,
  UnsupportedRouteError,
  UnsupportedTokenError,
} from '../../../src/intents/plan/errors.ts';
import type { PlanDeps, PlanRequest } from '../../../src/intents/plan/types.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../harness/devnet.ts';
import { devnetPlanDeps } from './support/devnet-plan-deps.ts';

const usdc = (n: string) => parseUnits(n, 6);
const dai = (n: string) => parseUnits(n, 18);
const NOW = 1_900_000_000n;

let net: TestDevnet;
let deps: PlanDeps;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  net = await startTestDevnet();
  [alpha, beta] = net.chains as [TestDevnetChain, TestDevnetChain];
  user = net.devnet.accounts.user.address;
  deps = { ...devnetPlanDeps(net), nowSeconds: () => NOW };
}, 60_000);
afterAll(async () => {
  await net?.stop();
});

function daiAlphaToWethBeta(extra: Partial<PlanRequest> = {}): PlanRequest {
  return {
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: alpha.entry.tokens.DAI!,
    destinationChainId: beta.entry.chainId,
    destinationTokenAddress: beta.entry.tokens.WETH!,
    originTokenAmount: dai('1000'),
    serviceFeeBps: 30n,
    ...extra,
  };
}

describe('money in a quote', () => {
  it('adds up: total fee = gas + provider + service, in amounts and in USD', async () => {
    // Pinned to V2 for the provider fee's size below (its 0.3 % per hop); test/routing checks the sums of a
    // split route across V2 and V3.
    const plan = await buildExecutionPlan(daiAlphaToWethBeta({ swapProvider: 'UNISWAP_V2' }), deps);
    const f = plan.fees;
    expect(f.gasFee).toBe(f.originGas.feeAmount + f.destinationGas!.feeAmount);
    expect(f.collectorFee).toBe(f.gasFee + f.serviceFee);
    expect(f.totalFeeAmount).toBe(f.gasFee + f.providerFee + f.serviceFee);
    expect(f.totalFeeUsd).toBeCloseTo(f.gasFeeUsd + f.providerFeeUsd + f.serviceFeeUsd, 9);
    expect(f.collectorFeeUsd).toBeCloseTo(f.gasFeeUsd + f.serviceFeeUsd, 9);
    expect(f.gasFeeUsd).toBeCloseTo(f.originGas.feeUsd + f.destinationGas!.feeUsd, 9);
    expect(f.providerFeesUsd).toHaveLength(plan.routeProviders.length);
    expect(f.providerFeesUsd.reduce((a, b) => a + b, 0)).toBeCloseTo(f.providerFeeUsd, 6);
    expect(f.serviceFee).toBe((dai('1000') * 30n) / 10_000n);
    // Two swaps at 0.3 % each on ~1000 USD plus a 5 bps spread: a few USD of provider fees.
    expect(f.providerFeeUsd).toBeGreaterThan(5);
    expect(f.providerFeeUsd).toBeLessThan(8);

    const p = plan.priceImpact;
    const parts = p.execution.priceImpactUsd + p.market.priceImpactUsd + p.providerFees.priceImpactUsd;
    expect(parts + p.serviceFees.priceImpactUsd).toBeCloseTo(p.net.priceImpactUsd, 9);
    expect(p.net.priceImpactUsd).toBeCloseTo(plan.amounts.toAmountUsd - plan.amounts.fromAmountUsd, 9);
    expect(p.net.priceImpact).toBeCloseTo((p.net.priceImpactUsd / plan.amounts.fromAmountUsd) * 100, 9);
    expect(p.providerFees.priceImpactUsd).toBeCloseTo(-f.providerFeeUsd, 9);
    expect(p.serviceFees.priceImpactUsd).toBeCloseTo(-f.collectorFeeUsd, 9);
    expect(p.execution.priceImpactUsd).toBeLessThanOrEqual(0);
    expect(plan.amounts.fromAmountUsd).toBeGreaterThan(990);
  });

  it('sets the deadlines from the quote time', async () => {
    const plan = await buildExecutionPlan(daiAlphaToWethBeta(), deps);
    const d = plan.deadlines;
    expect(d.quoteExpiresAt).toBe(NOW + QUOTE_TTL_SECONDS);
    expect(d.originDeadline).toBe(d.quoteExpiresAt + EXECUTE_WINDOW_SECONDS);
    expect(plan.origin.intent.deadline).toBe(d.originDeadline);
    expect(plan.order!.fillDeadline).toBe(d.fillDeadline);
    expect(d.fillDeadline!).toBeGreaterThan(d.originDeadline);
    expect(plan.destination!.intent.deadline).toBe(d.destinationDeadline);
    expect(d.destinationDeadline!).toBeGreaterThan(d.fillDeadline!);
    expect(d.settlementRefundAt).toBe(d.fillDeadline! + 600n);
    expect(plan.estimatedDuration).toBeGreaterThan(0);
  });

  it('commits the intents the way DESIGN §4 says', async () => {
    const plan = await buildExecutionPlan(daiAlphaToWethBeta(), deps);
    const o = plan.origin.intent;
    const d = plan.destination!.intent;
    expect(o.mode).toBe(0);
    expect(o.executor).toBe(deps.operator.relayer);
    expect(o.refundRecipient).toBe(user);
    expect(o.depositAmount).toBe(plan.amounts.depositAmount);
    expect(d.mode).toBe(1);
    expect(d.executor).toBe(zeroAddress);
    expect(d.refundRecipient).toBe(user);
    expect(d.minGas).toBeGreaterThan(0n);
    expect(plan.order!.recipient).toBe(plan.destination!.address);
    expect(plan.order!.depositor).toBe(plan.origin.address);
    const other = await buildExecutionPlan(daiAlphaToWethBeta(), deps);
    expect(other.origin.intent.salt).not.toBe(o.salt);
    expect(other.origin.address).not.toBe(plan.origin.address);
  });

  it('offers the gas fee in the origin token or native, and only native when asked', async () => {
    const both = await buildExecutionPlan(daiAlphaToWethBeta(), deps);
    expect(both.gasFeeOptions.feeOptions.map((o) => o.tokenAddress)).toEqual([
      alpha.entry.tokens.DAI,
      zeroAddress,
    ]);
    expect(both.gasFeeOptions.feeOptions[0]!.amount).toBe(both.fees.gasFee);
    expect(both.gasFeeOptions.feeCollectorAddress).toBe(deps.operator.feeCollector);
    const native = await buildExecutionPlan(daiAlphaToWethBeta({ onlyNativeGasFee: true }), deps);
    expect(native.gasFeeOptions.feeOptions.map((o) => o.tokenAddress)).toEqual([zeroAddress]);
  });

  it('infers the trade type from which amount is given', () => {
    expect(inferTradeType(daiAlphaToWethBeta())).toBe('EXACT_INPUT');
    expect(inferTradeType(daiAlphaToWethBeta({ destinationTokenAmount: 0n }))).toBe('EXACT_INPUT');
    expect(inferTradeType(daiAlphaToWethBeta({ destinationTokenAmount: 5n }))).toBe('EXACT_OUTPUT');
  });
});

describe('the destination-call amount rule', () => {
  it('finds the placeholder word and a word equal to the quoted amount, nothing else', () => {
    const word = (n: bigint) => n.toString(16).padStart(64, '0');
    const data = `0x6e553f65${'deadbeef'.repeat(8)}${word(77n)}${word(1234n)}` as const;
    expect(findAmountWords(data, 1234n)).toEqual([4, 68]);
    expect(findAmountWords(data, undefined)).toEqual([4]);
  });
});

describe('requests that cannot be routed', () => {
  it('an unknown chain', async () => {
    const err = await buildExecutionPlan(daiAlphaToWethBeta({ destinationChainId: 1 }), deps).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedChainError);
    expect(err.message).toMatch(/destinationChainId: chain 1 is not supported/);
  });

  it('a token that is not listed', async () => {
    const req = daiAlphaToWethBeta({ originTokenAddress: '0x000000000000000000000000000000000000dEaD' });
    const err = await buildExecutionPlan(req, deps).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedTokenError);
    expect(err.message).toMatch(/originTokenAddress: token 0x0+dEaD is not listed/);
  });

  it('a provider this server does not have', async () => {
    const err = await buildExecutionPlan(daiAlphaToWethBeta({ bridgeProvider: 'CCTP' }), deps).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(UnsupportedRouteError);
    expect(err.message).toMatch(/^options\.bridgeProvider: CCTP is not available/);
    expect(err.details.field).toBe('options.bridgeProvider');
  });

  it('more than the pool holds', async () => {
    const req = daiAlphaToWethBeta({
      destinationTokenAmount: parseEther('5000'),
      originTokenAmount: undefined,
    });
    const err = await buildExecutionPlan(req, deps).catch((e) => e);
    expect(err).toBeInstanceOf(InsufficientLiquidityError);
    expect(err.details.field).toBe('destinationTokenAmount');
  });

  it('more than the solver holds on the destination', async () => {
    const req: PlanRequest = {
      ...daiAlphaToWethBeta(),
      originTokenAddress: alpha.entry.tokens.USDC!,
      destinationTokenAddress: beta.entry.tokens.USDC!,
      originTokenAmount: usdc('2000000'),
    };
    const err = await buildExecutionPlan(req, deps).catch((e) => e);
    expect(err).toBeInstanceOf(InsufficientLiquidityError);
    expect(err.message).toMatch(/the solver holds/);
  });

  it('an exact output that needs more than the given cap', async () => {
    const req = daiAlphaToWethBeta({
      destinationTokenAmount: parseEther('1'),
      originTokenAmount: dai('100'),
    });
    const err = await buildExecutionPlan(req, deps).catch((e) => e);
    expect(err).toBeInstanceOf(ExceedsMaximumError);
    expect(err.message).toContain('exceeds user-specified maximum');
    expect(err.details.field).toBe('originTokenAmount');
  });

  it('a token or native currency without a USD price, naming the request field it is about', async () => {
    const cases: [number, Address, string][] = [
      [beta.entry.chainId, beta.entry.tokens.WETH!, 'destinationTokenAddress'],
      [alpha.entry.chainId, alpha.entry.tokens.DAI!, 'originTokenAddress'],
      [beta.entry.chainId, zeroAddress, 'destinationChainId'],
      [alpha.entry.chainId, zeroAddress, 'originChainId'],
    ];
    for (const [chainId, token, field] of cases) {
      const unpriced: PlanDeps = {
        ...deps,
        getPriceUsd: (c, t) =>
          c === chainId && t.toLowerCase() === token.toLowerCase() ? undefined : deps.getPriceUsd(c, t),
      };
      const err = await buildExecutionPlan(daiAlphaToWethBeta(), unpriced).catch((e) => e);
      expect(err, field).toBeInstanceOf(MissingPriceError);
      expect(err.details.field, field).toBe(field);
      expect(err.message, field).toMatch(new RegExp(`^${field}: no USD price for`));
    }
  });

  it('an amount that does not cover the fees', async () => {
    const err = await buildExecutionPlan(daiAlphaToWethBeta({ originTokenAmount: 1000n }), deps).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(InvalidAmountError);
    expect(err.message).toMatch(/^originTokenAmount: 1000 does not cover the fees/);
    expect(err.details.field).toBe('originTokenAmount');
  });
});
