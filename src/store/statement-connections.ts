/**
 * The store's statement connections, filled one at a time: a statement goes to the first connection that
 * is neither stuck (its oldest unanswered statement older than SPILL_AFTER_MS: a row lock, a long query)
 * nor deep (SPILL_DEPTH unanswered), so the next ones open only when the first cannot keep up.
 *
 * postgres.js on its own hands each statement to an idle connection before pipelining on a busy one, so
 * 16 statements issued together went out as four socket writes that woke four server backends. On one
 * busy connection they leave in one write and find its backend awake: in alternated `bench:e2e` runs on
 * Postgres (docs/benchmarks.md) the server spent 17–19 ms of CPU per intent on one connection against
 * 23–30 on four.
 *
 * Each connection is a postgres.js client of one connection (it pipelines what is queued on it). A
 * connection's statements are answered in the order they were written, so a FIFO of send times gives the
 * age of its oldest unanswered one.
 */
import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';

/**
 * Age (ms) past which a connection's oldest unanswered statement counts as stuck and the next statement
 * goes elsewhere: a busy event loop alone delays answers ~10–15 ms (docs/benchmarks.md, "Where the time
 * goes"), a row lock held by a transaction or another process for longer than this should not hold up the rest.
 */
export const SPILL_AFTER_MS = 50;
/**
 * Unanswered statements on one connection past which the next goes to another: one backend runs them one
 * after another, and a deeper queue would leave a many-core server's other cores idle.
 */
export const SPILL_DEPTH = 32;

export interface StatementConnections {
  /** Runs one statement on the first connection that can take it. */
  unsafe(text: string, parameters: readonly unknown[]): Promise<postgres.RowList<postgres.Row[]>>;
  end(options: { timeout: number }): Promise<void>;
}

interface Lane {
  readonly client: postgres.Sql;
  /** performance.now() of each unanswered statement, oldest first. */
  readonly sentAt: number[];
}

/** `open(i)` opens connection i (a postgres.js client with `max: 1`); at most `size` are opened, lazily. */
export function createStatementConnections(
  size: number,
  open: (index: number) => postgres.Sql,
): StatementConnections {
  const lanes: Lane[] = [];
  const laneFor = (now: number): Lane => {
    for (const lane of lanes) {
      const oldest = lane.sentAt[0];
      if (oldest === undefined || (now - oldest < SPILL_AFTER_MS && lane.sentAt.length < SPILL_DEPTH))
        return lane;
    }
    if (lanes.length < size) {
      const lane = { client: open(lanes.length), sentAt: [] };
      lanes.push(lane);
      return lane;
    }
    // Every connection is stuck or deep: the one with the fewest unanswered statements.
    return lanes.reduce((best, lane) => (lane.sentAt.length < best.sentAt.length ? lane : best));
  };
  return {
    unsafe(text, parameters) {
      const now = performance.now();
      const lane = laneFor(now);
      lane.sentAt.push(now);
      const answered = () => {
        lane.sentAt.shift();
      };
      const pending = lane.client.unsafe(text, parameters as postgres.ParameterOrJSON<never>[], {
        prepare: true,
      });
      pending.then(answered, answered);
      return pending;
    },
    async end(options) {
      await Promise.all(lanes.map((lane) => lane.client.end(options)));
    },
  };
}
