/**
 * Crash safety, one step at a time: `switchyard serve` runs as a child process and kills itself with
 * SIGKILL at a named point of a cross-chain intent (SWITCHYARD_DEBUG_CRASH_AT, src/chains/debug-crash-point.ts),
 * is restarted without the hook, and the intent must finish with nothing sent twice: one origin execution,
 * one fill, one destination execution, one settlement on-chain (events), every relayer/solver transaction
 * journaled at its nonce, no nonce skipped or reused for another call, and every token conserved.
 *
 * A point that does not fire within CRASH_FIRE_TIMEOUT_MS fails that point by name; after every point the
 * child is SIGKILLed whatever happened and each start listens on a fresh port, so one failed point cannot
 * take the others down with it. CRASH_AT_STEP_DB=postgres runs the same points on PostgreSQL (DATABASE_URL, or
 * an embedded server; outside `npm test`, which runs two of them in crash-postgres.test.ts).
 */
import type { Address } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { freshAddress, quoteRequest, usdc } from '../e2e/support/requests.ts';
import { balanceOf } from '../harness/balances.ts';
import { auditSends, conservation, expectConserved } from './support/audit.ts';
import { type SubmittedIntent, submitIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import type { ServeProcess } from './support/serve-process.ts';
import { SETUP_TIMEOUT_MS, useResilienceSuite } from './support/suite.ts';

/** One crash, a restart (1–3 s) and an intent (~3 s), with room for a loaded 2-core machine (ms). */
const PER_POINT_TIMEOUT_MS = 120_000;
const FINISH_TIMEOUT_MS = 90_000;
/**
 * From the start with the hook to the kill: quote, commit, deposit and the steps up to the last point
 * (settle-batch:broadcast) take ~5 s; a loaded 2-core machine needs more, and a point that never fires must fail
 * well inside PER_POINT_TIMEOUT_MS with its own message (ms).
 */
const CRASH_FIRE_TIMEOUT_MS = 60_000;

/** The points where the process dies, in the order an intent reaches them. */
const CRASH_POINTS = [
  'execute:accepted',
  'origin-execute:signed',
  'origin-execute:broadcast',
  'origin-execute:mined',
  'solver-fill:signed',
  // The fill is in the pool, its broadcast mark held for the destination step's enqueue and not written.
  'solver-fill:sent',
  'solver-fill:broadcast',
  // The fill is mined, its mark held for the fill step's completion and not yet written.
  'solver-fill:mined',
  // The destination execution goes out right behind the fill when the fill is still in the pool: either.
  'destination-execute:broadcast,destination-execute-early:broadcast',
  // Settlement goes out in a batch shared between intents (src/engine/settlement-batcher.ts).
  'settle-batch:signed',
  'settle-batch:broadcast',
] as const;

const DIALECT = process.env.CRASH_AT_STEP_DB === 'postgres' ? 'postgres' : 'sqlite';

// Each point starts `serve` itself, with its crash hook.
const suite = useResilienceSuite({ service: () => ({ dialect: DIALECT }), start: false });
// Whatever happened in the point (its crash never came, an assertion failed, the test timed out), no
// `serve` child outlives it.
afterEach(async () => {
  await suite.svc?.kill();
});

describe('SIGKILL at each step of a cross-chain intent, then restart', () => {
  for (const point of CRASH_POINTS) {
    it(
      `killed at ${point}: the intent succeeds and nothing is sent twice`,
      async () => {
        const { svc, alpha, beta, audited, created, startBlocks, queue } = suite;
        const proc = await svc.start({ SWITCHYARD_DEBUG_CRASH_AT: point });
        const recipient = freshAddress();
        // USDC on alpha → DAI on beta: origin execution, fill, destination swap, settlement.
        const request = quoteRequest({
          owner: svc.net.devnet.accounts.user.address,
          from: alpha,
          fromToken: 'USDC',
          to: beta,
          toToken: point.startsWith('settle') ? 'USDC' : 'DAI',
          recipient,
          amountIn: usdc('40'),
        });
        const submitted = submitIntent(svc, request, queue);
        await crashAt(point, proc, submitted);
        svc.forget();
        await svc.start();
        const { intentId, intent } = await submitted;
        const done = await waitForTerminal(svc, intentId, FINISH_TIMEOUT_MS);
        expect(done.status).toBe('SUCCEEDED');
        await waitForStepDone(svc, intentId, 'settle', FINISH_TIMEOUT_MS);
        await svc.stopProcess();

        const received = await balanceOf(beta, request.destinationTokenAddress as Address, recipient);
        expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
        audited.push({
          intentId,
          originChainId: alpha.entry.chainId,
          destinationChainId: beta.entry.chainId,
          originAddress: intent.originIntentAddress as Address,
          destinationAddress: intent.destinationIntentAddress as Address,
        });
        created.push(
          recipient,
          intent.originIntentAddress as Address,
          intent.destinationIntentAddress as Address,
        );
        await auditSends(svc, audited, startBlocks);
      },
      PER_POINT_TIMEOUT_MS,
    );
  }

  it(
    'every token on every chain is conserved over all the crashed runs',
    async () => {
      expect(suite.audited.length).toBe(CRASH_POINTS.length);
      expectConserved(await conservation(suite.svc, suite.startBlocks, suite.created));
    },
    SETUP_TIMEOUT_MS,
  );
});

/**
 * Waits for the child to kill itself at `point`. Fails, naming the point, when the submission fails first
 * (the crash can then never come) or when the point has not fired within CRASH_FIRE_TIMEOUT_MS.
 */
async function crashAt(
  point: string,
  proc: ServeProcess,
  submitted: Promise<SubmittedIntent>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let intentId: string | undefined;
  const outcome = await Promise.race([
    proc.exited.then((how) => ({ how })),
    // A submission that succeeds is normal (the later points come after ExecuteIntent's answer).
    submitted.then(
      (s) => {
        intentId = s.intentId;
        return new Promise<never>(() => {});
      },
      (error: unknown) => ({ error }),
    ),
    new Promise<{ timedOut: true }>((resolve) => {
      timer = setTimeout(() => resolve({ timedOut: true }), CRASH_FIRE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  if ('how' in outcome) {
    if (outcome.how !== 'SIGKILL') {
      throw new Error(
        `crash point ${point}: serve exited with ${outcome.how}, not SIGKILL; see ${suite.svc.logPath}`,
      );
    }
    return;
  }
  if ('error' in outcome) {
    throw new Error(
      `crash point ${point} cannot fire: submitting the intent failed: ${(outcome.error as Error)?.message}`,
      { cause: outcome.error },
    );
  }
  const steps = intentId ? await suite.svc.store.steps.list(intentId) : [];
  throw new Error(
    `crash point ${point} did not fire within ${CRASH_FIRE_TIMEOUT_MS} ms (intent ${intentId ?? 'not yet executed'}; steps ${JSON.stringify(
      steps.map((s) => [s.step, s.state, s.attempts]),
    )}); see ${suite.svc.logPath} (KEEP_RESILIENCE_LOGS=1 keeps it)`,
  );
}
