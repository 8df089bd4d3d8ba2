/**
 * Opens PostgreSQL through a `pg` pool for Kysely. Queries with parameters run as named prepared
 * statements (parsed once per connection), and BIGINT columns (millisecond timestamps, nonces) are
 * read as numbers; NUMERIC amounts stay strings and become bigint in the row mappers.
 */
import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database as Schema } from './schema.ts';

/** Connections per process: the API and the engine share them; Postgres' default limit is 100. */
const POOL_MAX_CONNECTIONS = 10;
const INT8_OID = 20;

export function createPgPool(databaseUrl: string): pg.Pool {
  return new pg.Pool({
    connectionString: databaseUrl,
    max: POOL_MAX_CONNECTIONS,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
    },
  });
}

export function openPostgres(pool: pg.Pool): Kysely<Schema> {
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
}

type QueryFn = (text: unknown, values?: unknown) => Promise<unknown>;

/** Wraps each pooled client so that parameterised queries carry a statement name. */
function withPreparedStatements(pool: pg.Pool): pg.Pool {
  const wrapped = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    let proxy = wrapped.get(client);
    if (!proxy) {
      const query = client.query.bind(client) as QueryFn;
      proxy = new Proxy(client, {
        get(target, prop, receiver) {
          if (prop !== 'query') return Reflect.get(target, prop, receiver);
          return (text: unknown, values?: unknown[]) =>
            typeof text === 'string' && Array.isArray(values) && values.length > 0
              ? query({ name: statementName(text), text, values })
              : query(text, values);
        },
      });
      wrapped.set(client, proxy);
    }
    return proxy;
  };
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'connect') return async () => wrap(await target.connect());
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function statementName(text: string): string {
  return `sy_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}
