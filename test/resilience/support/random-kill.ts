/**
 * The random-kill run (random-kill.test.ts on SQLite, random-kill-postgres.test.ts on PostgreSQL): intents
 * of the six route kinds (route-mix.ts) submitted a few at a time while `switchyard serve` is SIGKILLed and
 * restarted at random moments. The seed (RANDOM_KILL_SEED, else drawn from the clock) picks the kill gaps
 * and the route order after one intent of each kind; it is printed so a failing run can be replayed.
 * Afterwards every intent is final as routed (SUCCEEDED, or REFUNDED for the reverting destination call)
 * and settled, nothing was sent twice and every journaled nonce was used once (audit.ts), and every token
 * on every chain is conserved.
 */
import type { Address } from 'viem';
import { expect } from 'vitest';
import { freshAddress } from '../../e2e/support/requests.ts';
import { type AuditedIntent, auditSends, conservation, expectConserved } from './audit.ts';
import { type SubmittedIntent, submitIntent, waitForStepDone, waitForTerminal } from './intents.ts';
import { type Route, routeMix } from './route-mix.ts';
import { seededRandom } from './seeded-random.ts';
import type { ResilienceSuite } from './suite.ts';

/** Seeds drawn from the clock stay below this, so they are short to print and to type back. */
const SEED_RANGE = 1_000_000;

export interface RandomKillOptions {
  /** Printed with the seed and the figures (e.g. 'sqlite', 'postgres'). */
  label: string;
  intents: number;
  kills: number;
  /** Gap between a restart and the next kill (ms), drawn uniformly from this range. */
  killGapMs: { min: number; max: number };
  /** Intents in flight at once. */
  concurrency: number;
  /** How long each intent may take to be final (and settled) once the kills are over (ms). */
  finishTimeoutMs: number;
}

interface Submitted {
  route: Route;
  recipient: Address;
  sent: SubmittedIntent;
}

export async function runRandomKill(suite: ResilienceSuite, options: RandomKillOptions): Promise<void> {
  const seed = process.env.RANDOM_KILL_SEED ? Number(process.env.RANDOM_KILL_SEED) : Date.now() % SEED_RANGE;
  console.log(`random-kill [${options.label}] seed: ${seed} (replay with RANDOM_KILL_SEED=${seed})`);
  const random = seededRandom(seed);
  const { svc } = suite;
  const started = Date.now();
  await svc.start();

  const kinds = routeMix(suite);
  // One of each kind first, then a seeded mix.
  const plan = Array.from(
    { length: options.intents },
    (_, i) => kinds[i < kinds.length ? i : Math.floor(random() * kinds.length)]!,
  );
  const submitted: Submitted[] = [];
  const cursor = { next: 0 };
  const [kills] = await Promise.all([
    killAtRandom(suite, options, random, started),
    ...Array.from({ length: options.concurrency }, () => submitFrom(suite, plan, cursor, submitted)),
  ]);

  const outcomes = await waitAllFinal(suite, submitted, options.finishTimeoutMs);
  const finished = Date.now() - started;
  await svc.stopProcess();

  const { operatorTransactions } = await auditSends(svc, submitted.map(audited), suite.startBlocks);
  const created = submitted.flatMap(({ recipient, sent }) =>
    [recipient, sent.intent.originIntentAddress, sent.intent.destinationIntentAddress].filter(Boolean),
  ) as Address[];
  const lines = await conservation(svc, suite.startBlocks, created);
  console.log(
    JSON.stringify(
      {
        label: options.label,
        seed,
        intents: submitted.length,
        kills: kills.length,
        killedAtMs: kills,
        allFinalAfterMs: finished,
        outcomes,
        operatorTransactions,
        conservation: lines.map(
          (l) => `${l.chain}/${l.token}: ${l.before} → ${l.after} (+${l.allowed} burned/wrapped)`,
        ),
      },
      null,
      1,
    ),
  );
  expect(submitted.length).toBe(options.intents);
  expectConserved(lines);
}

/** A worker: takes the next planned route and drives one intent through the API, until the plan is done. */
async function submitFrom(
  suite: ResilienceSuite,
  plan: Route[],
  cursor: { next: number },
  submitted: Submitted[],
): Promise<void> {
  while (cursor.next < plan.length) {
    const route = plan[cursor.next++]!;
    const recipient = freshAddress();
    const sent = await submitIntent(suite.svc, route.request(recipient), suite.queue);
    submitted.push({ route, recipient, sent });
  }
}

/** SIGKILLs the service `kills` times, each a seeded gap after the previous restart; returns when (ms). */
async function killAtRandom(
  suite: ResilienceSuite,
  options: RandomKillOptions,
  random: () => number,
  started: number,
): Promise<number[]> {
  const { min, max } = options.killGapMs;
  const kills: number[] = [];
  for (let k = 0; k < options.kills; k++) {
    const gap = min + Math.floor(random() * (max - min));
    await new Promise((r) => setTimeout(r, gap));
    await suite.svc.kill();
    kills.push(Date.now() - started);
    await suite.svc.start();
  }
  return kills;
}

/** Each intent final with its route's outcome, and settled when cross-chain; returns the outcome counts. */
async function waitAllFinal(
  suite: ResilienceSuite,
  submitted: Submitted[],
  timeoutMs: number,
): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  for (const { route, sent } of submitted) {
    const done = await waitForTerminal(suite.svc, sent.intentId, timeoutMs);
    expect({ route: route.name, status: done.status }).toEqual({ route: route.name, status: route.expected });
    if (done.originChainId !== done.destinationChainId) {
      await waitForStepDone(suite.svc, sent.intentId, 'settle', timeoutMs);
    }
    outcomes[done.status] = (outcomes[done.status] ?? 0) + 1;
  }
  return outcomes;
}

function audited({ sent }: Submitted): AuditedIntent {
  return {
    intentId: sent.intentId,
    originChainId: sent.intent.originChainId,
    destinationChainId: sent.intent.destinationChainId,
    originAddress: sent.intent.originIntentAddress as Address,
    destinationAddress: (sent.intent.destinationIntentAddress || sent.intent.originIntentAddress) as Address,
  };
}
