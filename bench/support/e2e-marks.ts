/** The marks bench/e2e.ts judges its runs by (the issues' figures), in one place for every report. */

/** Automine: the service's median latency at most this many times bare's. */
export const MAX_AUTOMINE_LATENCY_RATIO = 1.5;
/** Automine: at least this many intents settled per second. */
export const MIN_AUTOMINE_INTENTS_PER_SECOND = 50;
/** --db both: Postgres settles at least this share of SQLite's intents per second. */
export const MIN_POSTGRES_TO_SQLITE = 0.9;
