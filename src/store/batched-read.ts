/**
 * Reads by one key (an intent id) asked for in the same event-loop turn, sent as one statement for all
 * their keys (`= any(…)`) instead of one each; a turn with a single read sends the one-key statement. On
 * Postgres every statement is a round trip and ~0.4 ms of the server's CPU (docs/benchmarks.md, "Postgres
 * against SQLite"), and reads of several intents come together: the steps a lease hands out start at once,
 * the changes of a settlement batch wake their waiters together. SQLite's reads are calls in the process:
 * nothing to save, and the wait for the turn's end would only add latency (`capabilities.batchesReads`).
 */
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface BatchedReadDeps<Row> {
  db: Kysely<Database>;
  /** False: every read runs its one-key statement at once (SQLite: `capabilities.batchesReads`). */
  batches: boolean;
  /** The statement for one key. */
  one(key: string): CompiledQuery;
  /** The statement for several distinct keys; its rows in the order the one-key statement gives them. */
  many(keys: string[]): CompiledQuery;
  keyOf(row: Row): string;
}

interface Waiting<Row> {
  key: string;
  resolve(rows: Row[]): void;
  reject(error: unknown): void;
}

/** `read(key)`: the rows the one-key statement would give for `key`, in its order. */
export function createBatchedRead<Row>(deps: BatchedReadDeps<Row>): (key: string) => Promise<Row[]> {
  if (!deps.batches) return async (key) => (await deps.db.executeQuery<Row>(deps.one(key))).rows;
  let waiting: Waiting<Row>[] = [];

  const run = async (batch: Waiting<Row>[]) => {
    if (batch.length === 1) {
      const only = batch[0]!;
      only.resolve((await deps.db.executeQuery<Row>(deps.one(only.key))).rows);
      return;
    }
    const keys = [...new Set(batch.map((entry) => entry.key))];
    const { rows } = await deps.db.executeQuery<Row>(deps.many(keys));
    const byKey = new Map<string, Row[]>();
    for (const row of rows) {
      const key = deps.keyOf(row);
      const list = byKey.get(key);
      if (list) list.push(row);
      else byKey.set(key, [row]);
    }
    // Each caller gets its own array: two reads of one key must not share (and mutate) one.
    for (const entry of batch) entry.resolve([...(byKey.get(entry.key) ?? [])]);
  };

  const flush = () => {
    const batch = waiting;
    waiting = [];
    run(batch).catch((error: unknown) => {
      for (const entry of batch) entry.reject(error);
    });
  };

  return (key) =>
    new Promise<Row[]>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ key, resolve, reject });
    });
}
