/**
 * 50 intents of mixed route kinds while `switchyard serve` is SIGKILLed and restarted at random moments
 * (RANDOM_KILL_SEED=<n> replays a run: the seed picks the kill gaps and the route order; it is printed;
 * RANDOM_KILL_DB=postgres runs it on PostgreSQL: DATABASE_URL, or an embedded server).
 * Afterwards every intent is final — SUCCEEDED, or REFUNDED for the route whose destination call reverts —
 * nothing was sent twice (support/audit.ts) and every token on every chain is conserved.
 */
import type { QuoteIntentRequest } from '@0xtrails/api';
import { type Address, encodeFunctionData, parseEther } from 'viem';
import { expect, it } from 'vitest';
import { accruingVaultAbi } from '../../src/contracts/abis.generated.ts';
import { AMOUNT_PLACEHOLDER } from '../../src/intents/plan/constants.ts';
import { dai, freshAddress, quoteRequest, usdc } from '../e2e/support/requests.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type AuditedIntent, auditSends, conservation, expectConserved } from './support/audit.ts';
import { type SubmittedIntent, submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { useResilienceSuite } from './support/suite.ts';

const INTENTS = 50;
/** Kills per run: enough to land in every step several times, few enough to stay near 3 minutes. */
const KILLS = 8;
/** Gap between a restart and the next kill (ms), drawn uniformly from this range. */
const KILL_GAP_MS = { min: 500, max: 3_000 } as const;
/** Intents in flight at once: keeps all steps busy while the kills happen. */
const CONCURRENCY = 6;
/** A killed step's lease (10 s) plus the restart, times a few kills in a row (ms). */
const FINISH_TIMEOUT_MS = 150_000;

// The test starts `serve` itself (and the kills restart it).
const suite = useResilienceSuite({
  service: () => ({ dialect: process.env.RANDOM_KILL_DB === 'postgres' ? 'postgres' : 'sqlite' }),
  start: false,
});

/** mulberry32: a tiny seeded PRNG, so a failing run can be replayed from its printed seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Route {
  name: string;
  expected: 'SUCCEEDED' | 'REFUNDED';
  request(recipient: Address): QuoteIntentRequest;
}

function routes(): Route[] {
  const { alpha, beta, gamma, svc } = suite;
  const owner = svc.net.devnet.accounts.user.address;
  const r =
    (from: TestDevnetChain, fromToken: string, to: TestDevnetChain, toToken: string, amountIn: bigint) =>
    (recipient: Address) =>
      quoteRequest({ owner, from, fromToken, to, toToken, recipient, amountIn });
  const vault = gamma.entry.contracts.usdcVault as Address;
  return [
    { name: 'USDC alpha→beta', expected: 'SUCCEEDED', request: r(alpha, 'USDC', beta, 'USDC', usdc('25')) },
    {
      name: 'USDC alpha→DAI beta',
      expected: 'SUCCEEDED',
      request: r(alpha, 'USDC', beta, 'DAI', usdc('30')),
    },
    { name: 'USDC→DAI on alpha', expected: 'SUCCEEDED', request: r(alpha, 'USDC', alpha, 'DAI', usdc('20')) },
    {
      name: 'DAI gamma→USDC alpha',
      expected: 'SUCCEEDED',
      request: r(gamma, 'DAI', alpha, 'USDC', dai('35')),
    },
    {
      name: 'ETH alpha→USDC beta',
      expected: 'SUCCEEDED',
      request: r(alpha, 'ETH', beta, 'USDC', parseEther('0.02')),
    },
    {
      // deposit() without an approval: the destination call reverts, the owner is refunded on gamma.
      name: 'USDC alpha→gamma vault call that reverts',
      expected: 'REFUNDED',
      request: () =>
        quoteRequest({
          owner,
          from: alpha,
          fromToken: 'USDC',
          to: gamma,
          toToken: 'USDC',
          recipient: vault,
          amountIn: usdc('15'),
          extra: {
            destinationCallData: encodeFunctionData({
              abi: accruingVaultAbi,
              functionName: 'deposit',
              args: [BigInt(AMOUNT_PLACEHOLDER), freshAddress()],
            }),
            destinationCallValue: 0n,
          } as never,
        }),
    },
  ];
}

it(`${INTENTS} intents while the service is SIGKILLed ${KILLS} times: all final, nothing twice, tokens conserved`, async () => {
  const seed = Number(process.env.RANDOM_KILL_SEED ?? Date.now() % 1_000_000);
  console.log(`random-kill seed: ${seed} (replay with RANDOM_KILL_SEED=${seed})`);
  const random = seeded(seed);
  const { svc, startBlocks, queue } = suite;
  const started = Date.now();
  await svc.start();

  const kinds = routes();
  const plan = Array.from(
    { length: INTENTS },
    (_, i) => kinds[i < kinds.length ? i : Math.floor(random() * kinds.length)]!,
  );
  const submitted: { route: Route; recipient: Address; sent: SubmittedIntent }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const route = plan[next++]!;
      const recipient = freshAddress();
      const sent = await submitIntent(svc, route.request(recipient), queue);
      submitted.push({ route, recipient, sent });
    }
  };
  const killer = async () => {
    const kills: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      const gap = KILL_GAP_MS.min + Math.floor(random() * (KILL_GAP_MS.max - KILL_GAP_MS.min));
      await new Promise((r) => setTimeout(r, gap));
      await svc.kill();
      kills.push(Date.now() - started);
      await svc.start();
    }
    return kills;
  };
  const [kills] = await Promise.all([killer(), ...Array.from({ length: CONCURRENCY }, worker)]);

  const outcomes = new Map<string, number>();
  for (const { route, sent } of submitted) {
    const done = await waitForTerminal(svc, sent.intentId, FINISH_TIMEOUT_MS);
    expect({ route: route.name, status: done.status }).toEqual({ route: route.name, status: route.expected });
    if (done.originChainId !== done.destinationChainId) {
      await waitForStepDone(svc, sent.intentId, 'settle', FINISH_TIMEOUT_MS);
    }
    outcomes.set(done.status, (outcomes.get(done.status) ?? 0) + 1);
  }
  const finished = Date.now() - started;
  await svc.stopProcess();

  const audited: AuditedIntent[] = submitted.map(({ sent }) => ({
    intentId: sent.intentId,
    originChainId: sent.intent.originChainId,
    destinationChainId: sent.intent.destinationChainId,
    originAddress: sent.intent.originIntentAddress as Address,
    destinationAddress: (sent.intent.destinationIntentAddress || sent.intent.originIntentAddress) as Address,
  }));
  const { operatorTransactions } = await auditSends(svc, audited, startBlocks);
  const created = submitted.flatMap(({ recipient, sent }) =>
    [recipient, sent.intent.originIntentAddress, sent.intent.destinationIntentAddress].filter(Boolean),
  ) as Address[];
  const lines = await conservation(svc, startBlocks, created);
  console.log(
    JSON.stringify(
      {
        seed,
        intents: submitted.length,
        kills: kills.length,
        killedAtMs: kills,
        allFinalAfterMs: finished,
        outcomes: Object.fromEntries(outcomes),
        operatorTransactions,
        conservation: lines.map(
          (l) => `${l.chain}/${l.token}: ${l.before} → ${l.after} (+${l.allowed} burned/wrapped)`,
        ),
      },
      null,
      1,
    ),
  );
  expect(submitted.length).toBe(INTENTS);
  expectConserved(lines);
}, 400_000);
