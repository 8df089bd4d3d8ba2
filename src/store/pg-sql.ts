/**
 * SQL text with its parameters for the engine's Postgres-only data-modifying statements (a step's completion
 * with its successors and rows, a status move with its rows or steps or inventory check, a send's nonce with
 * its record), written in the SQL the query builder writes for them. Those statements differ per call in
 * which parts, columns and rows they carry, so they cannot be compiled once; Kysely built and compiled each
 * of them at every call, ~1.3 ms of the main thread per intent in a CPU profile of `bench:e2e --db postgres`,
 * most of what separated the two stores' threads (docs/benchmarks.md, "The Postgres-only statements written
 * as text"). Here a fragment is a flat list of text and values; rendering numbers the values `$1`, `$2`, … in
 * order.
 */
import { CompiledQuery } from 'kysely';

/** A value that goes to the server as a parameter. */
interface Parameter {
  readonly value: unknown;
}

/** A piece of SQL: text and parameters in order. Build with `pg`; nest freely. */
export class PgSql {
  constructor(readonly chunks: readonly (string | Parameter)[]) {}
}

/**
 * `pg\`… ${x} …\``: a fragment nested as `x` is inlined, anything else (an array too) becomes one parameter,
 * as in Kysely's `sql` template.
 */
export function pg(strings: TemplateStringsArray, ...values: unknown[]): PgSql {
  const chunks: (string | Parameter)[] = [strings[0]!];
  values.forEach((value, i) => {
    if (value instanceof PgSql) chunks.push(...value.chunks);
    else chunks.push({ value });
    chunks.push(strings[i + 1]!);
  });
  return new PgSql(chunks);
}

/** Text written as is: a keyword, an operator, SQL built from constants. */
export const raw = (text: string): PgSql => new PgSql([text]);

export const EMPTY = raw('');

/** A quoted identifier; `a.b` names column b of a. */
export const ident = (name: string): PgSql =>
  raw(
    name
      .split('.')
      .map((part) => `"${part.replaceAll('"', '""')}"`)
      .join('.'),
  );

/** A string literal written into the text (a channel name: pg_notify's first argument). */
export const literal = (text: string): PgSql => raw(`'${text.replaceAll("'", "''")}'`);

export function join(fragments: readonly PgSql[], separator: PgSql = raw(', ')): PgSql {
  const chunks: (string | Parameter)[] = [];
  fragments.forEach((fragment, i) => {
    if (i > 0) chunks.push(...separator.chunks);
    chunks.push(...fragment.chunks);
  });
  return new PgSql(chunks);
}

/** `$1, $2, …`: each value a parameter. */
export const values = (list: readonly unknown[]): PgSql => join(list.map((value) => pg`${value}`));

/** The text with `$n` placeholders and the parameters, as Kysely's Postgres compiler gives them. */
export function render(fragment: PgSql): { sql: string; parameters: unknown[] } {
  let sql = '';
  const parameters: unknown[] = [];
  for (const chunk of fragment.chunks) {
    if (typeof chunk === 'string') sql += chunk;
    else {
      parameters.push(chunk.value);
      sql += `$${parameters.length}`;
    }
  }
  return { sql, parameters };
}

/** The fragment as a query Kysely runs (`db.executeQuery`). */
export function compiled(fragment: PgSql): CompiledQuery {
  const { sql, parameters } = render(fragment);
  return CompiledQuery.raw(sql, parameters);
}
