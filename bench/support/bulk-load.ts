/**
 * Fast bulk load of intents and their four receipt transactions, straight into the store's tables
 * (the Store interface inserts one row per round trip, which would take minutes for 100,000
 * intents). The rows are exactly what `store.intents.insert` and `store.transactions.upsert` write.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { INTENT_COLUMNS_BUT_PLAN } from '../../src/store/schema.ts';
import { BENCH_CHAINS, BENCH_USDC, BENCH_WETH } from '../fixtures/chains.ts';
import { intentFixture, pooledRandomHex } from '../fixtures/wire-intent.ts';

/** Rows per INSERT on Postgres: big enough to amortise the round trip, small enough for one message. */
const PG_BATCH_INTENTS = 1_000;
/** Intents are created one second apart, ending now. */
const CREATED_SPACING_MS = 1_000;

export type BulkTarget = { sqlitePath: string } | { databaseUrl: string };

export interface LoadedSample {
  intentIds: string[];
  owners: string[];
}

/** The columns a bulk-loaded intent fills: the store's own list, without the serial id. */
const INTENT_COLUMNS = INTENT_COLUMNS_BUT_PLAN.filter((c) => c !== 'id');
const PG_INTENT_TYPES = [
  'text',
  'int',
  'text',
  'text',
  'int',
  'int',
  'text',
  'text',
  'text',
  'numeric',
  'text',
  'numeric',
  'text',
  'bigint',
  'bigint',
  'bigint',
  'text',
  'bigint',
  'bigint',
  'bigint',
  'bigint',
];

const TX_COLUMNS = [
  'intent_id',
  'kind',
  'chain_id',
  'from_address',
  'to_address',
  'token_address',
  'token_amount',
  'status',
  'txn_hash',
  'mined_at',
  'created_at',
  'updated_at',
] as const;
const PG_TX_TYPES = [
  'text',
  'text',
  'int',
  'text',
  'text',
  'text',
  'numeric',
  'text',
  'text',
  'bigint',
  'bigint',
  'bigint',
];

type Row = (string | number | null)[];

function* generateRows(projectId: number, count: number, owners: string[], now: number) {
  const hex = pooledRandomHex();
  for (let i = 0; i < count; i++) {
    const createdAt = now - (count - i) * CREATED_SPACING_MS;
    const [origin, destination] = i % 2 === 0 ? BENCH_CHAINS : [...BENCH_CHAINS].reverse();
    const f = intentFixture(
      {
        projectId,
        ownerAddress: owners[i % owners.length]!,
        originChainId: origin!.chainId,
        destinationChainId: destination!.chainId,
        originTokenAddress: BENCH_USDC,
        destinationTokenAddress: BENCH_WETH,
        createdAt: new Date(createdAt),
      },
      hex,
    );
    const n = f.intent;
    const finished = createdAt + 30_000;
    const deposit = f.transactions[0]!.txnHash!;
    const intent: Row = [
      n.intentId,
      projectId,
      'SUCCEEDED',
      n.ownerAddress,
      n.originChainId,
      n.destinationChainId,
      n.originIntentAddress,
      n.destinationIntentAddress,
      n.originTokenAddress,
      n.originTokenAmount.toString(),
      n.destinationTokenAddress,
      n.destinationTokenAmount.toString(),
      JSON.stringify(n.intent),
      n.quoteExpiresAt.getTime(),
      createdAt + 5_000,
      createdAt + 605_000,
      deposit,
      createdAt,
      finished,
      createdAt + 10_000,
      finished,
    ];
    const transactions: Row[] = f.transactions.map((t) => [
      t.intentId,
      t.kind,
      t.chainId,
      t.fromAddress ?? null,
      t.toAddress ?? null,
      t.tokenAddress ?? null,
      t.tokenAmount?.toString() ?? null,
      t.status,
      t.txnHash ?? null,
      t.minedAt?.getTime() ?? null,
      createdAt,
      finished,
    ]);
    yield { intent, transactions, intentId: n.intentId };
  }
}

function loadSqlite(path: string, rows: ReturnType<typeof generateRows>, sample: (id: string) => void) {
  const db = new Database(path);
  try {
    const insertIntent = db.prepare(
      `INSERT INTO intents (${INTENT_COLUMNS.join(',')}) VALUES (${INTENT_COLUMNS.map(() => '?').join(',')})`,
    );
    const insertTx = db.prepare(
      `INSERT INTO intent_transactions (${TX_COLUMNS.join(',')}) VALUES (${TX_COLUMNS.map(() => '?').join(',')})`,
    );
    db.transaction(() => {
      for (const r of rows) {
        insertIntent.run(r.intent);
        for (const t of r.transactions) insertTx.run(t);
        sample(r.intentId);
      }
    })();
  } finally {
    db.close();
  }
}

/** One INSERT … SELECT FROM unnest(arrays) per batch: a single round trip for many rows. */
function unnestInsert(table: string, columns: readonly string[], types: string[]) {
  const params = types.map((t, i) => `$${i + 1}::${t}[]`).join(',');
  return `INSERT INTO ${table} (${columns.join(',')}) SELECT * FROM unnest(${params})`;
}

function columnsOf(rows: Row[], width: number): unknown[][] {
  const out: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) {
    for (let i = 0; i < width; i++) out[i]!.push(row[i] === null ? null : String(row[i]));
  }
  return out;
}

async function loadPostgres(
  url: string,
  rows: ReturnType<typeof generateRows>,
  sample: (id: string) => void,
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const intentSql = unnestInsert('intents', INTENT_COLUMNS, PG_INTENT_TYPES);
  const txSql = unnestInsert('intent_transactions', TX_COLUMNS, PG_TX_TYPES);
  try {
    let intents: Row[] = [];
    let transactions: Row[] = [];
    const flush = async () => {
      if (intents.length === 0) return;
      await client.query(intentSql, columnsOf(intents, INTENT_COLUMNS.length));
      await client.query(txSql, columnsOf(transactions, TX_COLUMNS.length));
      intents = [];
      transactions = [];
    };
    for (const r of rows) {
      intents.push(r.intent);
      transactions.push(...r.transactions);
      sample(r.intentId);
      if (intents.length >= PG_BATCH_INTENTS) await flush();
    }
    await flush();
    await client.query('ANALYZE intents; ANALYZE intent_transactions');
  } finally {
    await client.end();
  }
}

/**
 * Loads `count` SUCCEEDED intents of `projectId`, spread evenly over `ownerCount` owners, and returns
 * a sample of intent ids and the owners (for the requests the benchmark sends).
 */
export async function bulkLoadIntents(input: {
  target: BulkTarget;
  projectId: number;
  count: number;
  ownerCount: number;
  sampleSize: number;
}): Promise<LoadedSample> {
  const hex = pooledRandomHex();
  const owners = Array.from({ length: input.ownerCount }, () => hex(20));
  const stride = Math.max(1, Math.floor(input.count / input.sampleSize));
  const intentIds: string[] = [];
  let seen = 0;
  const sample = (id: string) => {
    if (seen++ % stride === 0 && intentIds.length < input.sampleSize) intentIds.push(id);
  };
  const rows = generateRows(input.projectId, input.count, owners, Date.now());
  if ('sqlitePath' in input.target) loadSqlite(input.target.sqlitePath, rows, sample);
  else await loadPostgres(input.target.databaseUrl, rows, sample);
  return { intentIds, owners };
}
