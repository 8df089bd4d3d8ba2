import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { compileByShape, compiledInsert, compileOnce } from './compiled-query.ts';
import type { Database } from './schema.ts';

const dialects = {
  sqlite: new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgres: new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

describe.each(Object.entries(dialects))('compileOnce [%s]', (_name, db) => {
  type Lease = { owner: string; leaseUntil: number; now: number; limit: number };
  const lease = (v: Lease) =>
    db
      .updateTable('intent_steps')
      .set((eb) => ({
        state: 'running',
        lease_owner: v.owner,
        lease_until: v.leaseUntil,
        attempts: eb('attempts', '+', 1),
        updated_at: v.now,
      }))
      .where(
        'id',
        'in',
        db
          .selectFrom('intent_steps')
          .select('id')
          .where('state', 'in', ['pending', 'running'])
          .where('next_attempt_at', '<=', v.now)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', v.now)]))
          .limit(v.limit),
      )
      .returningAll()
      .compile();

  it('gives the SQL and parameters the builder gives, call after call', () => {
    const compiled = compileOnce(lease);
    for (const values of [
      { owner: 'w1', leaseUntil: 20, now: 10, limit: 64 },
      { owner: 'w2', leaseUntil: 1_700_000_010_000, now: 1_700_000_000_000, limit: 3 },
    ]) {
      const once = compiled(values);
      const built = lease(values);
      expect(once.sql).toBe(built.sql);
      expect(once.parameters).toEqual(built.parameters);
    }
  });

  it('keeps nulls and constants, and compiles each shape once', () => {
    const insert = compileByShape((v: Record<string, unknown>, shape) =>
      db
        .insertInto('intent_steps')
        .values(
          Array.from({ length: Number(shape) }, (_, i) => ({
            intent_id: v[`${i}:id`] as string,
            step: v[`${i}:step`] as string,
            state: 'pending',
            attempts: 0,
            next_attempt_at: 1,
            last_error: null,
            lease_owner: null,
            lease_until: null,
            created_at: 1,
            updated_at: 1,
          })),
        )
        .compile(),
    );
    const two = insert('2', { '0:id': 'a', '0:step': 'fill', '1:id': 'a', '1:step': 'settle' });
    expect(two.parameters).toEqual([
      'a',
      'fill',
      'pending',
      0,
      1,
      null,
      null,
      null,
      1,
      1,
      'a',
      'settle',
      'pending',
      0,
      1,
      null,
      null,
      null,
      1,
      1,
    ]);
    const one = insert('1', { '0:id': 'b', '0:step': 'deposit' });
    expect(one.parameters).toEqual(['b', 'deposit', 'pending', 0, 1, null, null, null, 1, 1]);
  });

  it('refuses a value the builder computed with (it would be sent as the marker)', () => {
    const computed = compileOnce((v: { now: number; leaseMs: number }) =>
      db
        .updateTable('intent_steps')
        .set({ lease_until: v.now + v.leaseMs })
        .compile(),
    );
    expect(() => computed({ now: 1, leaseMs: 2 })).toThrow(/did not become a parameter/);
  });
});

describe.each(Object.entries(dialects))('compiledInsert [%s]', (_name, db) => {
  const step = (id: string, name: string, at: number) => ({
    intent_id: id,
    step: name,
    state: 'pending',
    attempts: 0,
    next_attempt_at: at,
    last_error: null,
    lease_owner: null,
    lease_until: null,
    created_at: at,
    updated_at: at,
  });
  // Rows of two tables in one statement, each with its own columns (as the Postgres quote insert).
  const build = (rows: Record<string, unknown>[]) =>
    db
      .with('s', (qb) =>
        qb
          .insertInto('intent_steps')
          .values(rows.slice(0, 2) as never)
          .returning('id'),
      )
      .insertInto('nonces')
      .values(rows[2] as never)
      .returning('next_nonce')
      .compile();

  it('gives the SQL and parameters the builder gives, call after call', () => {
    const compiled = compiledInsert(build, 3);
    for (const at of [1, 1_700_000_000_000]) {
      const rows = [
        step(`i${at}`, 'fill', at),
        step(`i${at}`, 'settle', at + 1),
        { chain_id: 31337, address: `0x${at}`, next_nonce: at % 7, updated_at: at },
      ];
      const once = compiled.with(rows);
      const built = build(rows);
      expect(once.sql).toBe(built.sql);
      expect(once.parameters).toEqual(built.parameters);
    }
  });

  it('refuses rows of another count', () => {
    const compiled = compiledInsert(build, 3);
    expect(() => compiled.with([step('a', 'fill', 1)])).toThrow(RangeError);
  });
});
