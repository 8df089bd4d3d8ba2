/**
 * A query Kysely builds and compiles once, then runs with new values. Building and compiling a query on
 * every call cost the engine's hot statements (the step lease, receipt rows) and the quote's inserts more
 * CPU than SQLite's own work for them (docs/benchmarks.md, "Statements compiled once"); the SQL text
 * and the parameters sent are the same as Kysely's.
 */
import type { CompiledQuery } from 'kysely';

/** Marks a parameter by name in the one build; a value no caller passes (NUL never occurs in our data). */
const MARKER_PREFIX = '\u0000param:';

/**
 * `build` is called once, with a marker in place of each named value; every parameter Kysely emitted for a
 * marker is then filled from the values of each call, the others (constants written in the builder) kept.
 * Values must reach the builder as they are: a marker that Kysely inlined, or that the builder computed
 * with, is refused at the build (its name would be missing from the parameters).
 */
export function compileOnce<P extends Record<string, unknown>>(
  build: (values: P) => CompiledQuery,
): (values: P) => CompiledQuery {
  let template: CompiledQuery | undefined;
  let slots: (string | undefined)[] = [];
  return (values) => {
    if (!template) {
      const names = Object.keys(values);
      template = build(Object.fromEntries(names.map((name) => [name, `${MARKER_PREFIX}${name}`])) as P);
      slots = template.parameters.map((parameter) =>
        typeof parameter === 'string' && parameter.startsWith(MARKER_PREFIX)
          ? parameter.slice(MARKER_PREFIX.length)
          : undefined,
      );
      const missing = names.filter((name) => !slots.includes(name));
      if (missing.length > 0) {
        template = undefined;
        throw new Error(`compileOnce: ${missing.join(', ')} did not become a parameter`);
      }
    }
    const parameters = template.parameters.map((constant, i) => {
      const name = slots[i];
      return name === undefined ? constant : values[name];
    });
    return { ...template, parameters };
  };
}

/** compileOnce per shape: statements whose SQL depends on the call (the columns set, a list's length). */
export function compileByShape<P extends Record<string, unknown>>(
  build: (values: P, shape: string) => CompiledQuery,
): (shape: string, values: P) => CompiledQuery {
  const shapes = new Map<string, (values: P) => CompiledQuery>();
  return (shape, values) => {
    let compiled = shapes.get(shape);
    if (!compiled) {
      compiled = compileOnce((v: P) => build(v, shape));
      shapes.set(shape, compiled);
    }
    return compiled(values);
  };
}

/** A statement that writes rows, compiled once; `with(rows)` gives it for rows of the same columns. */
export interface CompiledInsert {
  with(rows: Record<string, unknown>[]): CompiledQuery;
}

/** Separates a row's index from its column in the names compileOnce sees (an index has no dot). */
const ROW_SEPARATOR = '.';

/**
 * compileOnce for a statement that writes `rows` rows (an insert, a data-modifying WITH): `build` gets the
 * rows. Each row may have its own columns (a statement can write several tables), but every later call must
 * give the same columns per row as the first. Every value must be a parameter, as for compileOnce.
 */
export function compiledInsert(
  build: (rows: Record<string, unknown>[]) => CompiledQuery,
  rows = 1,
): CompiledInsert {
  const compiled = compileOnce((values: Record<string, unknown>) => {
    const built: Record<string, unknown>[] = Array.from({ length: rows }, () => ({}));
    for (const [name, value] of Object.entries(values)) {
      const at = name.indexOf(ROW_SEPARATOR);
      built[Number(name.slice(0, at))]![name.slice(at + 1)] = value;
    }
    return build(built);
  });
  return {
    with(values) {
      if (values.length !== rows) throw new RangeError(`compiled for ${rows} rows, got ${values.length}`);
      const named: Record<string, unknown> = {};
      for (const [i, row] of values.entries()) {
        for (const [column, value] of Object.entries(row)) named[`${i}${ROW_SEPARATOR}${column}`] = value;
      }
      return compiled(named);
    },
  };
}
