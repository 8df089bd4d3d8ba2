/**
 * CommitIntent's check that the submitted intent is the quoted one, compared by meaning: bigints and their
 * decimal strings are equal, hex (addresses, calldata, hashes) is compared case-insensitively, timestamps by
 * the instant they name. A member the client leaves out is fine (the server commits its own stored copy,
 * and the seed's commit shape omits the destination members); a member whose value differs, or one the
 * quote did not have, is a modification.
 */

/** Members that describe the record rather than the quote: they change over time or are ours to set. */
const RECORD_MEMBERS = new Set(['id', 'projectId', 'status', 'createdAt', 'updatedAt']);

const HEX = /^0x[0-9a-fA-F]*$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;

/** The path of the first member that differs (`depositTransaction.amount`), or undefined when equal. */
export function firstDifference(submitted: unknown, quoted: unknown): string | undefined {
  return diff(submitted, quoted, '', true);
}

function diff(submitted: unknown, quoted: unknown, path: string, top = false): string | undefined {
  if (submitted === undefined) return undefined;
  if (isObject(submitted) && isObject(quoted)) {
    for (const key of Object.keys(submitted)) {
      if (top && RECORD_MEMBERS.has(key)) continue;
      const child = path ? `${path}.${key}` : key;
      const value = submitted[key];
      if (!(key in quoted)) {
        if (value === undefined || value === null) continue;
        return child;
      }
      const found = diff(value, quoted[key], child);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(submitted) && Array.isArray(quoted)) {
    if (submitted.length !== quoted.length) return path;
    for (let i = 0; i < submitted.length; i++) {
      const found = diff(submitted[i], quoted[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return sameScalar(submitted, quoted) ? undefined : path;
}

function sameScalar(a: unknown, b: unknown): boolean {
  const x = scalar(a);
  const y = scalar(b);
  if (x === y) return true;
  if (typeof x === 'string' && typeof y === 'string' && TIMESTAMP.test(x) && TIMESTAMP.test(y)) {
    const [tx, ty] = [Date.parse(x), Date.parse(y)];
    return !Number.isNaN(tx) && tx === ty;
  }
  return false;
}

/** One spelling per meaning: integers as decimal strings, hex in lower case. */
function scalar(value: unknown): unknown {
  if (typeof value === 'bigint' && value >= 0n) return canonicalDigits(value.toString());
  if (typeof value === 'string') {
    if (HEX.test(value)) return value.toLowerCase();
    if (/^[0-9]+$/.test(value) && value.length > 0) return canonicalDigits(value);
  }
  return value;
}

/** "007" and "7" name the same amount; numbers and decimal strings meet as strings of the number. */
function canonicalDigits(value: string): string | number {
  const big = BigInt(value);
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
