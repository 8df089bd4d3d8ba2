/**
 * The messages between a measuring process and the API server process it forks (bench/wait.ts with
 * bench/wait-server.ts, bench/events.ts with bench/events-server.ts). `Counts` is what the server counts
 * beside its memory (held calls, open streams).
 */

/** Where the server process keeps its store. */
export type Target = { sqlitePath: string } | { databaseUrl: string };

/** Every message carries an id; the answer repeats it (a long `change` overlaps `stats` samples). */
export type ToServer = { id: number } & (
  | { type: 'start'; target: Target; intents: number }
  | { type: 'stats'; gc?: boolean }
  | { type: 'change'; rate: number }
  | { type: 'stop' }
);

export type FromServer<Counts> = { id: number } & (
  | { type: 'ready'; url: string; key: string; intentIds: string[] }
  | ({ type: 'stats'; rss: number; heapUsed: number; heapTotal: number; external: number } & Counts)
  | { type: 'changed'; at: Record<string, number> }
  | { type: 'error'; message: string }
);

type WithoutId<M> = M extends { id: number } ? Omit<M, 'id'> : never;
export type Question = WithoutId<ToServer>;
export type Answer<Counts> = WithoutId<FromServer<Counts>>;
