/**
 * Log fields as JSON can carry them: a bigint becomes its decimal string (amounts stay exact; a JSON
 * number would be read back as a float) and an Error becomes `{ name, message }` (JSON.stringify gives
 * `{}`). Plain objects and arrays are walked; the input is returned unchanged when nothing needs
 * converting, so the common log line costs one pass over its fields.
 */

/** How deep nested fields are walked; a log field deeper than this is a bug, and a cycle must end. */
const MAX_DEPTH = 8;

export function loggable<T extends object>(fields: T): T {
  return convert(fields, 0) as T;
}

function convert(value: unknown, depth: number): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (Array.isArray(value)) return convertArray(value, depth);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  return convertRecord(value as Record<string, unknown>, depth);
}

function convertArray(values: unknown[], depth: number): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const shown = convert(values[i], depth + 1);
    if (shown === values[i]) continue;
    out ??= [...values];
    out[i] = shown;
  }
  return out ?? values;
}

function convertRecord(record: Record<string, unknown>, depth: number): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const shown = convert(record[key], depth + 1);
    if (shown === record[key]) continue;
    out ??= { ...record };
    out[key] = shown;
  }
  return out ?? record;
}
