/**
 * random-kill.test.ts on PostgreSQL (DATABASE_URL, or the run's embedded server: the
 * Postgres suite never skips), sized for `npm test`: 20 intents of the same six route kinds, 5 SIGKILLs of
 * `switchyard serve` at random moments. The same checks (support/random-kill.ts): every intent final as
 * routed and settled, nothing sent twice, every journaled nonce used once, every token conserved. The seed
 * is printed; RANDOM_KILL_SEED=<n> replays it.
 */
import { it } from 'vitest';
import { runRandomKill } from './support/random-kill.ts';
import { useResilienceSuite } from './support/suite.ts';

/** Enough for every route kind three times over, few enough to keep the file near a minute and a half. */
const INTENTS = 20;
/** Kills per run: each lands in some step of the intents in flight; its restart takes those steps over. */
const KILLS = 5;
/** Gap between a restart and the next kill (ms), drawn uniformly from this range (as on SQLite). */
const KILL_GAP_MS = { min: 500, max: 3_000 } as const;
/** Intents in flight at once (as on SQLite). */
const CONCURRENCY = 6;
/** A restart (which ends the killed process's leases) and its resumed steps, times a few kills in a row (ms). */
const FINISH_TIMEOUT_MS = 150_000;

// The test starts `serve` itself (and the kills restart it).
const suite = useResilienceSuite({ service: () => ({ dialect: 'postgres' }), start: false });

it(`Postgres: ${INTENTS} intents while the service is SIGKILLed ${KILLS} times: all final, nothing twice, tokens conserved`, async () => {
  await runRandomKill(suite, {
    label: 'postgres',
    intents: INTENTS,
    kills: KILLS,
    killGapMs: KILL_GAP_MS,
    concurrency: CONCURRENCY,
    finishTimeoutMs: FINISH_TIMEOUT_MS,
  });
}, 300_000);
