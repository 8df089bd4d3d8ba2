/** A statement compiled once with Kysely whose parameters are filled in per call (the quote's inserts). */
import type { CompiledQuery } from 'kysely';

/** A statement compiled once; `with(rows)` gives it for rows of the same shape (the same SQL text). */
export interface CompiledInsert {
  with(rows: Record<string, unknown>[]): CompiledQuery;
}

/**
 * Compiles `build` once for `rows` rows whose values are markers, then learns which row and column each
 * parameter is, so later calls only fill in the parameters. Each row may have its own columns (a statement
 * can write several tables), but every later call must give the same columns per row as the first. Every
 * value must be a parameter: a column the dialect inlined would be missing, so compiling refuses it.
 */
export function compiledInsert(
  build: (rows: Record<string, unknown>[]) => CompiledQuery,
  rows = 1,
): CompiledInsert {
  let template: CompiledQuery | undefined;
  let slots: [number, string][] = [];
  return {
    with(values) {
      if (values.length !== rows) throw new RangeError(`compiled for ${rows} rows, got ${values.length}`);
      if (!template) {
        const marker = (row: number, column: string) => `\u0000${row}\u0000${column}`;
        const columnsOf = values.map((value) => Object.keys(value));
        template = build(
          columnsOf.map((columns, i) =>
            Object.fromEntries(columns.map((column) => [column, marker(i, column)])),
          ),
        );
        const byMarker = new Map(
          columnsOf.flatMap((columns, i) =>
            columns.map((column) => [marker(i, column), [i, column]] as const),
          ),
        );
        slots = template.parameters.map((parameter) => {
          const slot = byMarker.get(parameter as string);
          if (!slot) throw new Error(`compiled insert: parameter ${String(parameter)} is not a column value`);
          return [slot[0], slot[1]];
        });
        if (slots.length !== byMarker.size) throw new Error('compiled insert: a column value was inlined');
      }
      const parameters = slots.map(([row, column]) => values[row]![column]);
      return { ...template, parameters };
    },
  };
}
