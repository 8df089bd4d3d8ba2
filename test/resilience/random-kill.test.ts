/**
 * 50 intents of mixed route kinds while `switchyard serve` is SIGKILLed and restarted at random moments
 * (RANDOM_KILL_SEED=<n> replays a run: the seed picks the kill gaps and the route order; it is printed;
 * RANDOM_KILL_DB=postgres runs this size on PostgreSQL: DATABASE_URL, or an embedded server; `npm test`
 * runs a smaller Postgres run in random-kill-postgres.test.ts).
 * Afterwards every intent is final — SUCCEEDED, or REFUNDED for the route whose destination call reverts —
 * nothing was sent twice (support/audit.ts) and every token on every chain is conserved
 * (support/random-kill.ts).
 */
import { it } from 'vitest';
import { runRandomKill } from './support/random-kill.ts';
import { useResilienceSuite } from './support/suite.ts';

const INTENTS = 50;
/** Kills per run: enough to land in every step several times, few enough to stay near 3 minutes. */
const KILLS = 8;
/** Gap between a restart and the next kill (ms), drawn uniformly from this range. */
const KILL_GAP_MS = { min: 500, max: 3_000 } as const;
/** Intents in flight at once: keeps all steps busy while the kills happen. */
const CONCURRENCY = 6;
/** A restart (which ends the killed process's leases) and its resumed steps, times a few kills in a row (ms). */
const FINISH_TIMEOUT_MS = 150_000;
const DIALECT = process.env.RANDOM_KILL_DB === 'postgres' ? 'postgres' : 'sqlite';

// The test starts `serve` itself (and the kills restart it).
const suite = useResilienceSuite({ service: () => ({ dialect: DIALECT }), start: false });

it(`${INTENTS} intents while the service is SIGKILLed ${KILLS} times: all final, nothing twice, tokens conserved`, async () => {
  await runRandomKill(suite, {
    label: DIALECT,
    intents: INTENTS,
    kills: KILLS,
    killGapMs: KILL_GAP_MS,
    concurrency: CONCURRENCY,
    finishTimeoutMs: FINISH_TIMEOUT_MS,
  });
}, 400_000);
