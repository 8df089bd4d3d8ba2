/**
 * Counts for the e2e benchmark's `--count-sql`: the SQL statements the process runs, by statement, and the
 * large JSON texts it parses, by their first key (a stored plan, an intent, an API answer). It wraps the
 * drivers' own entry points (better-sqlite3's statement methods, the Postgres dialect's `executeQuery`) and `JSON.parse` for
 * the life of the run, so the store is counted as it runs in production, without a hook in its code.
 */
import Database from 'better-sqlite3';
import { DefaultQueryExecutor } from 'kysely';
import { PipelinedConnection } from '../../src/store/open-postgres.ts';

/** JSON texts shorter than this (characters) are not counted: the plan and the intent are several kB. */
const LARGE_JSON_CHARS = 1_000;
/** A statement's text in the listing is cut here (characters): enough to tell the store's statements apart. */
const STATEMENT_LABEL_CHARS = 150;

export interface SqlCounter {
  /** Statements by normalised SQL text since the last reset. */
  statements(): Map<string, number>;
  /** SQLite only (its calls are synchronous): milliseconds inside the driver by statement since the last reset. */
  statementMs(): Map<string, number>;
  /** JSON.parse calls on texts of LARGE_JSON_CHARS or more, by the text's first key. */
  largeJsonParses(): Map<string, number>;
  reset(): void;
  /** Puts the drivers' methods and JSON.parse back. */
  stop(): void;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * `callers`: each statement is labelled with the engine, service or API frame that issued it (a stack per
 * statement: slow, for finding where statements come from, not for timing).
 */
export function startSqlCounter(options: { callers?: boolean } = {}): SqlCounter {
  const statements = new Map<string, number>();
  const spent = new Map<string, number>();
  const parses = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const restores: (() => void)[] = [];
  const wrap = (
    target: Record<string, unknown>,
    name: string,
    count: (self: unknown, args: unknown[]) => void,
  ) => {
    const original = target[name] as Method;
    target[name] = function (this: unknown, ...args: unknown[]) {
      count(this, args);
      return original.apply(this, args);
    };
    restores.push(() => {
      target[name] = original;
    });
  };

  const scratch = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(scratch.prepare('select 1')) as Record<string, unknown>;
  scratch.close();
  if (options.callers) {
    // Where the caller's stack is still whole: Kysely's executor, called from the query builder's execute.
    // BEGIN and COMMIT do not pass through it and are not counted in this mode.
    const executor = Object.getPrototypeOf(DefaultQueryExecutor.prototype) as Record<string, unknown>;
    wrap(executor, 'executeQuery', (_self, [compiled]) =>
      bump(statements, `${normalise((compiled as { sql: string }).sql)}  ← ${caller()}`),
    );
  } else {
    for (const name of ['run', 'get', 'all', 'iterate']) {
      const original = statementProto[name] as Method;
      statementProto[name] = function (this: { source: string }, ...args: unknown[]) {
        const key = normalise(this.source);
        bump(statements, key);
        const started = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          spent.set(key, (spent.get(key) ?? 0) + performance.now() - started);
        }
      };
      restores.push(() => {
        statementProto[name] = original;
      });
    }
    wrap(
      PipelinedConnection.prototype as unknown as Record<string, unknown>,
      'executeQuery',
      (_self, [compiled]) => bump(statements, normalise((compiled as { sql: string }).sql)),
    );
  }
  const json = JSON as unknown as Record<string, unknown>;
  wrap(json, 'parse', (_self, [text]) => {
    if (typeof text === 'string' && text.length >= LARGE_JSON_CHARS) bump(parses, firstKey(text));
  });

  return {
    statements: () => new Map(statements),
    statementMs: () => new Map(spent),
    largeJsonParses: () => new Map(parses),
    reset() {
      statements.clear();
      spent.clear();
      parses.clear();
    },
    stop() {
      for (const restore of restores.reverse()) restore();
      restores.length = 0;
    },
  };
}

/** One label per statement shape: identifiers unquoted, placeholders as `?`, parameter lists collapsed. */
function normalise(sql: string): string {
  const text = sql
    .replace(/"/g, '')
    .replace(/\$\d+/g, '?')
    .replace(/\(\?(?:, \?)*\)/g, '(?…)')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > STATEMENT_LABEL_CHARS ? `${text.slice(0, STATEMENT_LABEL_CHARS)}…` : text;
}

/** The innermost frames outside the store and the drivers: who asked for the statement. */
function caller(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  const ours = frames
    .filter((f) => /\/src\//.test(f) && !/\/src\/store\//.test(f))
    .map((f) => /\/src\/([^:)]+:\d+)/.exec(f)?.[1] ?? '?');
  return ours.slice(0, 2).join(' < ') || '(store)';
}

function firstKey(text: string): string {
  const match = /^\s*([[{])\s*(?:"([^"]{0,40})")?/.exec(text);
  if (!match) return '(not an object)';
  return match[1] === '[' ? '[array]' : `{"${match[2] ?? ''}"…}`;
}

/**
 * Statements per intent (and, where timed, driver µs per intent): one line per statement, most first, after
 * a summary by verb and table.
 */
export function formatStatements(counts: Map<string, number>, ms: Map<string, number>, per: number): string {
  const byTable = new Map<string, [number, number]>();
  for (const [sql, n] of counts) {
    const key = verbAndTable(sql);
    const [c, t] = byTable.get(key) ?? [0, 0];
    byTable.set(key, [c + n, t + (ms.get(sql) ?? 0)]);
  }
  const line = (label: string, n: number, t: number) =>
    `  ${(n / per).toFixed(2).padStart(6)}  ${ms.size > 0 ? `${((1000 * t) / per).toFixed(0).padStart(5)} µs  ` : ''}${label}`;
  const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
  return [
    `  per intent: statements${ms.size > 0 ? ', µs inside the driver' : ''}`,
    line('total', sum(counts.values()), sum(ms.values())),
    ...[...byTable].sort((a, b) => b[1][0] - a[1][0]).map(([label, [n, t]]) => line(label, n, t)),
    '  by statement:',
    ...[...counts].sort((a, b) => b[1] - a[1]).map(([sql, n]) => line(sql, n, ms.get(sql) ?? 0)),
  ].join('\n');
}

function verbAndTable(sql: string): string {
  const verb = sql.split(' ', 1)[0]!.toLowerCase();
  const table = /\b(?:from|into|update)\s+([a-z_]+)/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}

export function formatParses(counts: Map<string, number>, per: number): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `  ${(n / per).toFixed(2).padStart(6)}  ${key}`)
    .join('\n');
}
