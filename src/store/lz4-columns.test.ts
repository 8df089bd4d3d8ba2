/**
 * Migration 0016: on a Postgres server built with lz4, the store's large values are written lz4-compressed
 * and read back unchanged; on one without, the migration leaves pglz and the database still migrates.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, rawQuery, type TestDatabase } from '../../test/harness/database.ts';
import { createSilentLogger } from '../internal/logger.ts';
import { createStore } from './create-store.ts';
import { LZ4_COLUMNS } from './migrations/0016_lz4_large_columns.ts';
import type { Store } from './types.ts';

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase('postgres');
  store = await createStore({ ...database.options, log: createSilentLogger() });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

/** Whether this server can compress with lz4 at all, asked on a temporary table of its own. */
async function serverHasLz4(): Promise<boolean> {
  const client = new pg.Client({ connectionString: database.options.databaseUrl });
  await client.connect();
  try {
    await client.query('create temporary table lz4_probe (v text compression lz4)');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '0A000') return false;
    throw error;
  } finally {
    await client.end();
  }
}

it('sets lz4 on every large column when the server has it, and leaves the default otherwise', async () => {
  const expected = (await serverHasLz4()) ? 'l' : '';
  const rows = await rawQuery<{ relname: string; attname: string; attcompression: string }>(
    database,
    `select c.relname, a.attname, a.attcompression from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relname in ('intents', 'signed_transactions') and a.attname in ('intent_json', 'plan_json', 'raw')`,
  );
  const found = new Map(rows.map((r) => [`${r.relname}.${r.attname}`, r.attcompression]));
  expect(found).toEqual(new Map(LZ4_COLUMNS.map(([table, column]) => [`${table}.${column}`, expected])));
});

it('writes a signed transaction of several kB lz4-compressed and reads it back byte for byte', async () => {
  const hasLz4 = await serverHasLz4();
  // A settlement batch's size, with the repetition real calldata has (zero padding, repeated addresses).
  const raw = `0x${'00'.repeat(600)}${'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'.repeat(100)}${'ff'.repeat(900)}`;
  const hash = `0x${'ab'.repeat(32)}`;
  await rawQuery(
    database,
    `insert into signed_transactions (chain_id, from_address, nonce, raw, hash, purpose, status, created_at)
     values (1, '0x0000000000000000000000000000000000000001', 0, '${raw}', '${hash}', 'settle-batch', 'SIGNED', 0)`,
  );
  const [row] = await rawQuery<{ raw: string; method: string | null; stored: number }>(
    database,
    `select raw, pg_column_compression(raw) as method, pg_column_size(raw) as stored
       from signed_transactions where hash = '${hash}'`,
  );
  expect(row!.raw).toBe(raw);
  expect(row!.method).toBe(hasLz4 ? 'lz4' : 'pglz');
  expect(row!.stored).toBeLessThan(raw.length / 2);
});
