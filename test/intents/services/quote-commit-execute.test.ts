/**
 * QuoteIntent, CommitIntent, ExecuteIntent and AbortIntent through the official client (@0xtrails/api 0.9.4)
 * on /rpc/Trails against a real server on the devnet (SQLite store), plus one quote-and-commit on
 * /rpc/Service with the spec's names. The engine is a recording double here.
 */
import {
  IntentStatusError,
  InvalidArgumentError,
  QuoteExpiredError,
  type QuoteIntentRequest,
  type TrailsApi,
  UnsupportedNetworkError,
} from '@0xtrails/api';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  isAddressEqual,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accruingVaultAbi, intentFactoryAbi } from '../../../src/contracts/abis.generated.ts';
import { decodePlan } from '../../../src/intents/plan-codec.ts';
import { EXECUTE_WINDOW_MS } from '../../../src/intents/services/index.ts';
import type { Store } from '../../../src/store/index.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { type Harness, type ServiceServer, type ServiceSuite, startServiceSuite } from './support.ts';

const usdc = (n: string) => parseUnits(n, 6);
const dai = (n: string) => parseUnits(n, 18);
const QUOTE_TTL_MS = 300_000;

let s: ServiceSuite;
let h: Harness;
let store: Store;
let key: string;
let srv: ServiceServer;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  s = await startServiceSuite();
  ({ h, store, key, srv, api, user } = s);
  [alpha, beta, gamma] = s.chains;
}, 120_000);
afterAll(() => s?.stop());

const token = (chain: TestDevnetChain, symbol: string): Address =>
  symbol === 'ETH' ? zeroAddress : chain.entry.tokens[symbol]!;

function request(
  from: TestDevnetChain,
  fromToken: string,
  to: TestDevnetChain,
  toToken: string,
  amounts: { in?: bigint; out?: bigint },
  extra: Partial<QuoteIntentRequest> = {},
): QuoteIntentRequest {
  return {
    ownerAddress: user,
    originChainId: from.entry.chainId,
    originTokenAddress: token(from, fromToken),
    destinationChainId: to.entry.chainId,
    destinationTokenAddress: token(to, toToken),
    destinationToAddress: user,
    originTokenAmount: amounts.in ?? 0n,
    destinationTokenAmount: amounts.out ?? 0n,
    tradeType: (amounts.out ? 'EXACT_OUTPUT' : 'EXACT_INPUT') as QuoteIntentRequest['tradeType'],
    ...extra,
  };
}

const big = (v: unknown) => expect(typeof v).toBe('bigint');

describe('QuoteIntent', () => {
  const kinds: [string, () => QuoteIntentRequest, boolean][] = [
    ['same chain, same token', () => request(alpha, 'USDC', alpha, 'USDC', { in: usdc('100') }), false],
    ['same-chain swap', () => request(alpha, 'USDC', alpha, 'DAI', { in: usdc('250') }), false],
    [
      'same-chain swap, exact output',
      () => request(alpha, 'DAI', alpha, 'USDC', { in: dai('1000'), out: usdc('40') }),
      false,
    ],
    ['native in (wrap + swap)', () => request(alpha, 'ETH', alpha, 'DAI', { in: parseEther('0.1') }), false],
    ['cross-chain same token', () => request(alpha, 'USDC', beta, 'USDC', { in: usdc('500') }), true],
    ['cross-chain, swap on origin', () => request(alpha, 'DAI', beta, 'USDC', { in: dai('300') }), true],
    [
      'cross-chain, swap on destination',
      () => request(alpha, 'USDC', beta, 'DAI', { out: dai('120'), in: usdc('1000') }),
      true,
    ],
    [
      'cross-chain, swaps on both sides',
      () => request(gamma, 'DAI', alpha, 'WETH', { in: dai('600') }),
      true,
    ],
    [
      'native in and out across chains',
      () => request(alpha, 'ETH', beta, 'ETH', { in: parseEther('0.5') }),
      true,
    ],
    [
      'destination call into a vault',
      () => {
        const vault = gamma.entry.contracts.usdcVault!;
        const data = encodeFunctionData({ abi: accruingVaultAbi, functionName: 'deposit', args: [0n, user] });
        return request(alpha, 'DAI', gamma, 'USDC', { in: dai('200') }, {
          destinationToAddress: vault,
          destinationCallData: data,
          destinationApproveAddress: vault,
          destinationCallValue: 0n,
        } as Partial<QuoteIntentRequest>);
      },
      true,
    ],
  ];

  it.each(kinds)(
    '%s: every field is populated and the fees add up',
    async (_name, make, crossChain) => {
      const req = make();
      const { intent, gasFeeOptions } = await api.quoteIntent(req);

      expect(intent.intentId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(intent.status).toBe('QUOTED');
      expect(intent.quoteRequest.originChainId).toBe(req.originChainId);
      expect(intent.quoteRequest.destinationChainId).toBe(req.destinationChainId);
      expect(isAddressEqual(intent.ownerAddress as Address, user)).toBe(true);
      big(intent.salt);

      // The deposit goes to the origin intent address, in the requested token, ready to send.
      const deposit = intent.depositTransaction;
      expect(deposit.toAddress).toBe(intent.originIntentAddress);
      expect(isAddressEqual(deposit.tokenAddress as Address, req.originTokenAddress as Address)).toBe(true);
      big(deposit.amount);
      expect(deposit.amount).toBeGreaterThan(0n);
      const raw = deposit as unknown as { to: Address; data: `0x${string}`; value: unknown; chainId: number };
      expect(raw.chainId).toBe(req.originChainId);
      if (req.originTokenAddress === zeroAddress) {
        expect(raw.to).toBe(intent.originIntentAddress);
        expect(BigInt(raw.value as string)).toBe(deposit.amount);
      } else {
        expect(raw.to).toBe(deposit.tokenAddress);
        const call = decodeFunctionData({ abi: erc20Abi, data: raw.data });
        expect(call.functionName).toBe('transfer');
        expect(call.args).toEqual([intent.originIntentAddress, deposit.amount]);
      }

      expect(intent.originCalls.calls.length).toBeGreaterThan(0);
      for (const call of intent.originCalls.calls) {
        big(call.value);
        big(call.gasLimit);
        expect(call.behaviorOnError).toBe(1);
      }
      expect(intent.originPrecondition.ownerAddress).toBe(intent.originIntentAddress);
      expect(intent.originPrecondition.minAmount).toBe(deposit.amount);
      expect(intent.originPrecondition.type).toBe(
        req.originTokenAddress === zeroAddress ? 'native-balance' : 'erc20-balance',
      );
      expect(intent.originMetaTxn.walletAddress).toBe(intent.originIntentAddress);
      expect(intent.originMetaTxn.input).toMatch(/^0x[0-9a-f]{8}/);

      if (crossChain) {
        expect(intent.destinationIntentAddress).not.toBe(intent.originIntentAddress);
        expect(intent.destinationCalls?.calls.every((c) => c.behaviorOnError === 2)).toBe(true);
        expect(intent.destinationPrecondition?.ownerAddress).toBe(intent.destinationIntentAddress);
        expect(intent.destinationMetaTxn?.walletAddress).toBe(intent.destinationIntentAddress);
        big(intent.fees.destinationGas?.totalFeeAmount);
      } else {
        expect(intent.destinationCalls).toBeUndefined();
      }

      const q = intent.quote;
      big(q.toAmount);
      big(q.toAmountMin);
      expect(q.toAmount).toBeGreaterThan(0n);
      expect(q.toAmountMin).toBeLessThanOrEqual(q.toAmount);
      // A same-chain transfer of the same token has no provider leg; every other route names its legs.
      const sameToken =
        req.originChainId === req.destinationChainId &&
        req.originTokenAddress === req.destinationTokenAddress;
      expect(q.routeProviders.length > 0).toBe(!sameToken);
      expect(q.routeProvidersFeeUsd).toHaveLength(q.routeProviders.length);
      expect(q.routeProvidersRequestIds).toHaveLength(q.routeProviders.length);
      expect(Object.keys(q.priceImpactDetails).sort()).toEqual([
        'executionPriceImpact',
        'marketPriceImpact',
        'netPriceImpact',
        'providerFeesPriceImpact',
        'trailsFeesPriceImpact',
      ]);
      expect(q.maxSlippage).toBeGreaterThan(0);
      if (req.tradeType === 'EXACT_OUTPUT')
        expect(q.toAmount).toBeGreaterThanOrEqual(req.destinationTokenAmount!);
      else expect(deposit.amount).toBe(req.originTokenAmount);

      const f = intent.fees;
      big(f.originGas.totalFeeAmount);
      expect(f.gasFeeTotal + f.trailsFeeTotal + f.providerFeeTotal).toBe(f.totalFeeAmount);
      expect(f.collectorFeeTotal).toBe(f.gasFeeTotal + f.trailsFeeTotal);
      expect(f.trailsFeeTotal).toBeGreaterThan(0n);
      expect(f.gasFeeUsd + f.trailsFeeUsd + f.providerFeeUsd).toBeCloseTo(f.totalFeeUsd, 6);
      expect(q.routeProvidersFeeUsd.reduce((a, b) => a + b, 0)).toBeCloseTo(f.providerFeeUsd, 6);

      expect(intent.trailsContracts.trailsIntentEntrypointAddress).toBe(alpha.entry.contracts.intentFactory);
      expect(intent.trailsVersion).not.toBe('');
      expect(Date.parse(intent.expiresAt)).toBeGreaterThan(h.clock.now().getTime());

      expect(gasFeeOptions.feeCollectorAddress).not.toBe(zeroAddress);
      for (const option of gasFeeOptions.feeOptions) {
        big(option.amount);
        expect(option.tokenSymbol).not.toBe('');
        expect(typeof option.tokenDecimals).toBe('number');
      }

      // Stored as QUOTED with the plan and three UNKNOWN receipt rows.
      const record = await store.intents.getForEngine(intent.intentId);
      expect(record?.status).toBe('QUOTED');
      const plan = decodePlan(record!.planJson!);
      expect(plan.origin.hash.toLowerCase()).toBe(intent.intentId);
      expect(plan.amounts.depositAmount).toBe(deposit.amount);
      const rows = await store.transactions.list(intent.intentId);
      expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual([
        ['deposit', 'UNKNOWN'],
        ['destination', 'UNKNOWN'],
        ['origin', 'UNKNOWN'],
      ]);
    },
    30_000,
  );

  it('offers only native gas options when onlyNativeGasFee is set', async () => {
    const both = await api.quoteIntent(request(alpha, 'USDC', beta, 'USDC', { in: usdc('50') }));
    expect(both.gasFeeOptions.feeOptions.some((o) => o.tokenAddress !== zeroAddress)).toBe(true);
    const { gasFeeOptions } = await api.quoteIntent(
      request(alpha, 'USDC', beta, 'USDC', { in: usdc('50') }, { onlyNativeGasFee: true }),
    );
    expect(gasFeeOptions.feeOptions.length).toBeGreaterThan(0);
    expect(gasFeeOptions.feeOptions.every((o) => o.tokenAddress === zeroAddress)).toBe(true);
  });

  it('refuses an exact-output quote whose deposit exceeds the cap, saying so', async () => {
    const error = await api
      .quoteIntent(request(alpha, 'USDC', beta, 'DAI', { out: dai('120'), in: usdc('1') }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toContain('exceeds user-specified maximum');
  });

  it('answers UnsupportedNetwork for a chain that is not configured', async () => {
    const req = { ...request(alpha, 'USDC', beta, 'USDC', { in: usdc('5') }), destinationChainId: 999_999 };
    await expect(api.quoteIntent(req)).rejects.toBeInstanceOf(UnsupportedNetworkError);
  });
});

describe('CommitIntent', () => {
  const quote = () => api.quoteIntent(request(alpha, 'USDC', beta, 'DAI', { in: usdc('80') }));

  it('commits the quote exactly as the client decoded and re-encoded it, idempotently', async () => {
    const { intent } = await quote();
    expect(intent.destinationCalls).toBeDefined();
    const { intentId } = await api.commitIntent({ intent });
    expect(intentId).toBe(intent.intentId);
    const record = await store.intents.getForEngine(intentId);
    expect(record?.status).toBe('COMMITTED');
    expect(record!.executeDeadline!.getTime() - record!.committedAt!.getTime()).toBe(EXECUTE_WINDOW_MS);
    expect((await api.commitIntent({ intent })).intentId).toBe(intentId);
    expect((await store.intents.getForEngine(intentId))?.executeDeadline).toEqual(record!.executeDeadline);
  });

  it("commits GetIntent's copy of a quoted intent", async () => {
    const { intent: quoted } = await quote();
    const { intent } = await api.getIntent({ intentId: quoted.intentId });
    expect((await api.commitIntent({ intent })).intentId).toBe(quoted.intentId);
  });

  it('accepts the seed commit shape without the destination members', async () => {
    const { intent } = await quote();
    const { destinationCalls, destinationPrecondition, destinationMetaTxn, ...rest } = intent;
    const { destinationGas, ...fees } = intent.fees;
    expect([destinationCalls, destinationPrecondition, destinationMetaTxn, destinationGas]).not.toContain(
      undefined,
    );
    expect((await api.commitIntent({ intent: { ...rest, fees } })).intentId).toBe(intent.intentId);
  });

  it('rejects a modified intent naming the field, and the intent stays QUOTED', async () => {
    const { intent } = await quote();
    const tampered = {
      ...intent,
      depositTransaction: { ...intent.depositTransaction, amount: intent.depositTransaction.amount - 1n },
    };
    const error = await api.commitIntent({ intent: tampered }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toContain('intent.depositTransaction.amount');
    const calls = intent.destinationCalls!;
    const otherTarget = {
      ...intent,
      destinationCalls: { ...calls, calls: [{ ...calls.calls[0]!, to: user }, ...calls.calls.slice(1)] },
    };
    await expect(api.commitIntent({ intent: otherTarget })).rejects.toThrow(
      /intent\.destinationCalls\.calls\[0\]\.to/,
    );
    expect((await store.intents.getForEngine(intent.intentId))?.status).toBe('QUOTED');
  });

  it('answers QuoteExpired after the quote expired', async () => {
    const { intent } = await quote();
    h.clock.advance(QUOTE_TTL_MS + 1000);
    try {
      await expect(api.commitIntent({ intent })).rejects.toBeInstanceOf(QuoteExpiredError);
    } finally {
      h.clock.advance(-(QUOTE_TTL_MS + 1000));
    }
    expect((await store.intents.getForEngine(intent.intentId))?.status).toBe('QUOTED');
  });

  it('works on /rpc/Service with the spec names', async () => {
    const post = async (method: string, body: unknown) => {
      const response = await fetch(`${srv.url}/rpc/Service/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-key': key },
        body: JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the answers are read as untyped JSON on purpose
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const quoted = await post('QuoteIntent', request(alpha, 'USDC', beta, 'USDC', { in: usdc('20') }));
    expect(quoted.status).toBe(200);
    const intent = quoted.body.intent;
    expect(intent.serviceVersion).toBeDefined();
    expect(intent.serviceContracts.serviceIntentEntrypointAddress).toBe(alpha.entry.contracts.intentFactory);
    expect(intent.fees.serviceFeeTotal).toMatch(/^[0-9]+$/);
    expect(intent.fees.provider.quoteProviderWithServiceFee).toMatch(/^[0-9]+$/);
    expect(intent.quote.priceImpactDetails.serviceFeesPriceImpact).toBeDefined();
    expect(intent.trailsVersion).toBeUndefined();
    const committed = await post('CommitIntent', { intent });
    expect(committed).toEqual({ status: 200, body: { intentId: intent.intentId } });
  });
});

describe('ExecuteIntent', () => {
  const committed = async () => {
    const { intent } = await api.quoteIntent(request(alpha, 'USDC', beta, 'USDC', { in: usdc('30') }));
    await api.commitIntent({ intent });
    return intent.intentId;
  };
  const someHash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

  it('needs a deposit hash or a signature', async () => {
    const intentId = await committed();
    await expect(api.executeIntent({ intentId })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('refuses an intent that is not committed', async () => {
    const { intent } = await api.quoteIntent(request(alpha, 'USDC', beta, 'USDC', { in: usdc('30') }));
    const error = await api
      .executeIntent({ intentId: intent.intentId, depositTransactionHash: someHash(1) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntentStatusError);
    expect((error as IntentStatusError).cause).toContain('status=QUOTED');
  });

  it('accepts a hash that is not mined, hands it to the engine, and repeats harmlessly', async () => {
    const intentId = await committed();
    const hash = someHash(2);
    for (let i = 0; i < 3; i++) {
      expect(await api.executeIntent({ intentId, depositTransactionHash: hash })).toEqual({
        intentId,
        intentStatus: 'COMMITTED',
      });
    }
    expect(h.engine.calls.filter((c) => c.intentId === intentId)).toEqual(
      Array(3).fill({ intentId, depositTransactionHash: hash }),
    );
  });

  it('answers IntentStatus with status=SUCCEEDED in the cause once the intent succeeded', async () => {
    const intentId = await committed();
    await store.intents.updateStatus({ intentId, to: 'SUCCEEDED' });
    const error = await api
      .executeIntent({ intentId, depositTransactionHash: someHash(3) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntentStatusError);
    expect((error as IntentStatusError).cause).toContain('status=SUCCEEDED');
  });

  it('answers QuoteExpired once the execute window closed', async () => {
    const intentId = await committed();
    h.clock.advance(EXECUTE_WINDOW_MS + 1000);
    try {
      await expect(
        api.executeIntent({ intentId, depositTransactionHash: someHash(4) }),
      ).rejects.toBeInstanceOf(QuoteExpiredError);
    } finally {
      h.clock.advance(-(EXECUTE_WINDOW_MS + 1000));
    }
  });
});

describe('AbortIntent', () => {
  it("records the owner's on-chain cancellation as ABORTED with the refund transaction", async () => {
    const { intent } = await api.quoteIntent(request(alpha, 'USDC', beta, 'USDC', { in: usdc('40') }));
    await api.commitIntent({ intent });
    const wallet = alpha.walletFor('user');
    const usdcAddress = token(alpha, 'USDC');
    const depositHash = await wallet.writeContract({
      address: usdcAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [intent.originIntentAddress as Address, intent.depositTransaction.amount],
    });
    await alpha.publicClient.waitForTransactionReceipt({ hash: depositHash });
    const before = await alpha.publicClient.readContract({
      address: usdcAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user],
    });

    // A transaction that is not a cancellation is refused.
    await expect(
      api.abortIntent({
        intentId: intent.intentId,
        chainId: alpha.entry.chainId,
        abortTransactionHash: depositHash,
      }),
    ).rejects.toThrow(/does not cancel/);

    const plan = decodePlan((await store.intents.getForEngine(intent.intentId))!.planJson!);
    const cancelHash = await wallet.writeContract({
      address: alpha.entry.contracts.intentFactory,
      abi: intentFactoryAbi,
      functionName: 'deployIfNeededAndRefund',
      args: [plan.origin.intent, [usdcAddress], false],
    });
    await alpha.publicClient.waitForTransactionReceipt({ hash: cancelHash });
    const after = await alpha.publicClient.readContract({
      address: usdcAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user],
    });
    expect(after - before).toBe(intent.depositTransaction.amount);

    const answer = await api.abortIntent({
      intentId: intent.intentId,
      chainId: alpha.entry.chainId,
      abortTransactionHash: cancelHash,
    });
    expect(answer).toEqual({ intentId: intent.intentId, status: 'ABORTED' });
    const { intentReceipt } = await api.getIntentReceipt({ intentId: intent.intentId });
    expect(intentReceipt.status).toBe('ABORTED');
    // 0.9.4 does not know refundTransaction, so its bigints arrive undecoded (as the decimal string).
    const refund = (
      intentReceipt as unknown as {
        refundTransaction: { txnHash: string; status: string; tokenAmount: string };
      }
    ).refundTransaction;
    expect(refund).toMatchObject({ txnHash: cancelHash, status: 'SUCCEEDED' });
    expect(BigInt(refund.tokenAmount)).toBe(intent.depositTransaction.amount);
  });
});
