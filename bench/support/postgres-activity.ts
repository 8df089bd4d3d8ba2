/**
 * What the Postgres server does for one database, seen from pg_stat_activity on a connection of its own:
 * the backends' process ids (their CPU is read from /proc, see process-cpu.ts), and, while sampling, what
 * each backend of the service is doing at each tick: running a statement, waiting on a lock, or idle inside
 * an open transaction (a transaction held open while its process is busy elsewhere, which keeps its row
 * locks taken). Averaged over the ticks, a state's figure is the mean number of backends in it: 0.8 waiting
 * on a lock means that at any moment, on average, 0.8 connections were blocked.
 */
import pg from 'pg';

/** Between two samples of pg_stat_activity (ms): often enough for statements of a few milliseconds. */
const SAMPLE_EVERY_MS = 20;
/** Characters of a statement's text kept to name it. */
const QUERY_PREFIX_CHARS = 48;

export interface ActivitySample {
  /** Ticks taken. */
  ticks: number;
  /** `state / wait / statement` → backends seen in it, summed over the ticks. */
  seen: Map<string, number>;
}

export interface PostgresActivity {
  /**
   * Process ids of the backends connected to the database now (this connection's own left out); with
   * `applicationName`, only those of connections that gave it.
   */
  backendPids(applicationName?: string): Promise<number[]>;
  /** Operator transactions journaled so far, by purpose (a purpose's `:<detail>` left out). */
  transactionsByPurpose(): Promise<Map<string, number>>;
  /** Samples until the returned function is called, which resolves with what was seen. */
  sample(): () => Promise<ActivitySample>;
  close(): Promise<void>;
}

export async function openPostgresActivity(databaseUrl: string): Promise<PostgresActivity> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const others = 'datname = current_database() and pid <> pg_backend_pid()';
  return {
    async backendPids(applicationName) {
      const { rows } =
        applicationName === undefined
          ? await client.query<{ pid: number }>(`select pid from pg_stat_activity where ${others}`)
          : await client.query<{ pid: number }>(
              `select pid from pg_stat_activity where ${others} and application_name = $1`,
              [applicationName],
            );
      return rows.map((r) => r.pid);
    },
    async transactionsByPurpose() {
      const { rows } = await client.query<{ purpose: string; n: string }>(
        `select split_part(purpose, ':', 1) as purpose, count(*) as n from signed_transactions group by 1`,
      );
      return new Map(rows.map((r) => [r.purpose, Number(r.n)]));
    },
    sample() {
      const seen = new Map<string, number>();
      let ticks = 0;
      let stopped = false;
      const loop = (async () => {
        while (!stopped) {
          const { rows } = await client.query<{ state: string; wait: string | null; query: string }>(
            `select state, wait_event_type || ':' || wait_event as wait, left(query, ${QUERY_PREFIX_CHARS}) as query
               from pg_stat_activity where ${others} and state <> 'idle'`,
          );
          ticks++;
          for (const r of rows) {
            const key = `${r.state} / ${r.wait ?? 'running'} / ${r.query.replace(/\s+/g, ' ')}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
          await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
        }
      })();
      return async () => {
        stopped = true;
        await loop;
        return { ticks, seen };
      };
    },
    close: () => client.end(),
  };
}

/** The sample as lines, most-seen first: mean backends in each state over the ticks. */
export function formatActivity(sample: ActivitySample, limit: number): string[] {
  const sorted = [...sample.seen].sort((a, b) => b[1] - a[1]).slice(0, limit);
  return sorted.map(([key, n]) => `  ${(n / Math.max(1, sample.ticks)).toFixed(2)}  ${key}`);
}

/**
 * The nonce rows' locks over a sample: a send allocates its nonce and records its signed transaction in one
 * database transaction (src/store/signed-transactions.ts allocateAndRecord), holding its (chain, address)
 * row from the nonce upsert to the commit, the signature included. `held`: backends inside that stretch
 * (the commit itself, named only `commit`, is not told apart and is left out); `waiting`: backends blocked
 * on a nonce row another holds. Both are means over the ticks, summed over every key and chain.
 */
export function nonceLocks(sample: ActivitySample): { held: number; waiting: number } {
  let held = 0;
  let waiting = 0;
  for (const [key, n] of sample.seen) {
    const [state, wait, query] = key.split(' / ');
    const onNonce = query?.startsWith('insert into "nonces"');
    const lockWait = wait?.startsWith('Lock:');
    if (onNonce && lockWait) waiting += n;
    else if (onNonce && state === 'idle in transaction') held += n;
    else if (query?.startsWith('insert into "signed_transactions"') && !lockWait) held += n;
  }
  const ticks = Math.max(1, sample.ticks);
  return { held: held / ticks, waiting: waiting / ticks };
}
