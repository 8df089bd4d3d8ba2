/**
 * The Prometheus listener on a devnet with the real engine: `/metrics` parses as Prometheus text (a real
 * parser), and the counters move by exactly the intents run through the official client: requests by method
 * and status, status changes, intents by status, step runs, JSON-RPC exchanges, and the solver's balance,
 * which equals the chain's.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, formatUnits, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_IDLE_POLL_INTERVAL_MS } from '../../src/engine/step-wakeups.ts';
import { balanceOf, type E2eService } from '../e2e/support/e2e-fixture.ts';
import { freshAddress, quoteRequest } from '../e2e/support/requests.ts';
import { runIntent } from '../e2e/support/run-intent.ts';
import { FAST_ENGINE_OPTIONS, startTestSwitchyard } from '../harness/app.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { scrape } from './support/scrape.ts';

/**
 * Nothing announces a dead worker's expired lease: the step loop finds it at its idle poll
 * (docs/engine.md, "Waking the step loop"), so the takeover is looked for over one such poll and a margin.
 */
const TAKEOVER_SEEN_WITHIN = { timeout: STEP_IDLE_POLL_INTERVAL_MS + 2_000 };

const INTENTS = 2;
/** A scrape that must see the engine's last bookkeeping (a step's completion after its status) waits this long (ms). */
const SETTLE_MS = 30_000;

let svc: E2eService;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;

beforeAll(async () => {
  const app = await startTestSwitchyard({
    engineOptions: FAST_ENGINE_OPTIONS,
    rateLimit: false,
    metrics: true,
    metricsBalancesTtlMs: 0,
  });
  svc = {
    ...app,
    balance: (chainId, token, holder) => balanceOf(app.chain(chainId), token as Address, holder as Address),
  };
  api = new TrailsApi(svc.key, { hostname: svc.url });
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
});
afterAll(async () => {
  await svc?.stop();
});

describe('Prometheus metrics', () => {
  it('serves Prometheus text on its own listener, not on the API', async () => {
    expect(svc.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(svc.metricsUrl!).port).not.toBe(new URL(svc.url).port);
    const s = await scrape(svc.metricsUrl!);
    for (const family of s.families) {
      expect(family.help, family.name).not.toBe('');
      expect(family.type, family.name).not.toBe('UNTYPED');
    }
    const names = s.families.map((f) => f.name);
    for (const name of [
      'switchyard_http_requests_total',
      'switchyard_http_request_duration_seconds',
      'switchyard_intent_status_changes_total',
      'switchyard_intents',
      'switchyard_step_runs_total',
      'switchyard_step_duration_seconds',
      'switchyard_step_lease_takeovers_total',
      'switchyard_steps',
      'switchyard_rpc_requests_total',
      'switchyard_rpc_errors_total',
      'switchyard_rpc_request_duration_seconds',
      'switchyard_operator_balance_tokens',
      'switchyard_webhook_deliveries_total',
      'switchyard_webhook_delivery_failures_total',
      'switchyard_event_streams_open',
      'process_cpu_seconds_total',
    ])
      expect(names).toContain(name);
    const typeOf = (name: string) => s.families.find((f) => f.name === name)?.type;
    for (const name of ['http_request', 'step', 'rpc_request', 'webhook_delivery'])
      expect(typeOf(`switchyard_${name}_duration_seconds`)).toBe('HISTOGRAM');
    expect(typeOf('switchyard_http_requests_total')).toBe('COUNTER');
    expect(typeOf('switchyard_intents')).toBe('GAUGE');
    expect((await fetch(svc.metricsUrl!.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(`${svc.url}/metrics`, { method: 'GET' })).status).not.toBe(200);
  });

  it('counts exactly the intents run: requests, status changes, intents by status, steps, RPC, solver balance', async () => {
    const solver = svc.net.devnet.accounts.solver!.address;
    const betaUsdc = beta.entry.tokens.USDC! as Address;
    const before = await scrape(svc.metricsUrl!);
    const filled: bigint[] = [];
    for (let n = 0; n < INTENTS; n++) {
      const request = quoteRequest({
        owner: svc.net.devnet.accounts.user.address,
        from: alpha,
        fromToken: 'USDC',
        to: beta,
        toToken: 'USDC',
        recipient: freshAddress(),
        amountIn: parseUnits('25', 6),
      });
      const { intent } = await runIntent(svc, api, request);
      filled.push(intent.quote.toAmount);
    }
    // The engine's last bookkeeping (the final step's completion, the settlement) lands just after the status.
    await expect
      .poll(
        async () => {
          const s = await scrape(svc.metricsUrl!);
          const settled = { step: 'settle', outcome: 'done' };
          return (
            s.value('switchyard_step_runs_total', settled) -
            before.value('switchyard_step_runs_total', settled)
          );
        },
        { timeout: SETTLE_MS },
      )
      .toBe(INTENTS);
    const after = await scrape(svc.metricsUrl!);
    const moved = (name: string, labels?: Record<string, string | number>) =>
      after.value(name, labels) - before.value(name, labels);

    for (const method of ['QuoteIntent', 'CommitIntent', 'ExecuteIntent'])
      expect(moved('switchyard_http_requests_total', { method, status: 200 }), method).toBe(INTENTS);
    for (const status of ['QUOTED', 'COMMITTED', 'EXECUTING', 'SUCCEEDED'])
      expect(moved('switchyard_intent_status_changes_total', { status }), status).toBe(INTENTS);
    expect(moved('switchyard_intent_status_changes_total', { status: 'FAILED' })).toBe(0);
    expect(moved('switchyard_intents', { status: 'SUCCEEDED' })).toBe(INTENTS);
    for (const status of ['QUOTED', 'COMMITTED', 'EXECUTING'])
      expect(moved('switchyard_intents', { status }), status).toBe(0);
    for (const step of ['deposit', 'origin', 'fill', 'destination', 'settle'])
      expect(moved('switchyard_step_runs_total', { step, outcome: 'done' }), step).toBe(INTENTS);

    for (const chain of [alpha, beta]) {
      const labels = { chain_id: chain.entry.chainId };
      expect(moved('switchyard_rpc_requests_total', labels)).toBeGreaterThan(0);
      expect(moved('switchyard_rpc_errors_total', labels)).toBe(0);
    }

    // The solver paid every fill on beta from its own USDC; the gauge says what the chain says.
    const solverBeta = { role: 'solver', chain_id: beta.entry.chainId, token: 'USDC' };
    const onChain = await balanceOf(beta, betaUsdc, solver);
    expect(after.value('switchyard_operator_balance_tokens', solverBeta)).toBe(
      Number(formatUnits(onChain, 6)),
    );
    const paid = filled.reduce((a, b) => a + b, 0n);
    expect(moved('switchyard_operator_balance_tokens', solverBeta)).toBeCloseTo(
      -Number(formatUnits(paid, 6)),
      6,
    );
    const relayers = after
      .series('switchyard_operator_balance_tokens')
      .filter((s) => s.labels.role === 'relayer');
    expect(relayers.map((s) => `${s.labels.chain_id}:${s.labels.token}`)).toContain(
      `${alpha.entry.chainId}:ETH`,
    );
  });

  it('counts steps due and leased from the journal: none once the engine is idle', async () => {
    await expect
      .poll(async () => {
        const s = await scrape(svc.metricsUrl!);
        return [
          s.value('switchyard_steps', { state: 'due' }),
          s.value('switchyard_steps', { state: 'leased' }),
        ];
      })
      .toEqual([0, 0]);
  });

  it('counts a step the engine took over from a worker whose lease ran out', async () => {
    const [intent] = await svc.store.intents.listByStatus(['SUCCEEDED'], 1);
    const before = await scrape(svc.metricsUrl!);
    // A worker leases a step and dies: its lease runs out 300 ms from now, when the step is due too. The step
    // is one this engine does not know, so nothing runs for the intent; the lease is what is counted.
    const step = 'a-step-of-a-dead-worker';
    const dueAt = new Date(Date.now() + 300);
    await svc.store.steps.enqueue({ intentId: intent!.intentId, step, runAt: dueAt });
    const [leased] = await svc.store.steps.leaseDue({
      owner: 'dead-worker',
      limit: 1,
      leaseMs: 1,
      now: dueAt,
    });
    expect(leased?.step).toBe(step);
    await expect
      .poll(async () => {
        const s = await scrape(svc.metricsUrl!);
        return (
          s.value('switchyard_step_lease_takeovers_total', { step }) -
          before.value('switchyard_step_lease_takeovers_total', { step })
        );
      }, TAKEOVER_SEEN_WITHIN)
      .toBe(1);
    const [journaled] = (await svc.store.steps.list(intent!.intentId)).filter((s) => s.step === step);
    expect(journaled?.takenOverFrom).toBe('dead-worker');
    expect(journaled?.leaseOwner === 'dead-worker').toBe(false);
  });
});
