/**
 * How the page writes amounts, money, times and addresses. Amounts stay bigint until they are text: a
 * token amount is never a float. USD is a float by nature (the API sends USD values as numbers); a USD
 * figure for a token amount is the amount's decimal text times a price, for display only.
 */

/** `1234.5` from 1234500000n base units and 6 decimals; no trailing zeros, thousands grouped. */
export function formatUnits(baseUnits: string | bigint, decimals: number): string {
  const value = BigInt(baseUnits);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const grouped = BigInt(whole).toLocaleString('en-US');
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** The amount as a plain decimal number, for multiplying by a USD price only. */
export function unitsAsNumber(baseUnits: string | bigint, decimals: number): number {
  return Number(formatUnits(baseUnits, decimals).replaceAll(',', ''));
}

const USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

export function formatUsd(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'USD n/a';
  return USD.format(value);
}

/** `2026-06-01 14:05:09 UTC`: one unambiguous clock for every reader. */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`. */
export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** `0xab12…cd34`: the start and end a person compares; the full value goes in a title or beside it. */
export function shortHex(hex: string, keep = 6): string {
  return hex.length <= keep * 2 + 2 ? hex : `${hex.slice(0, keep)}…${hex.slice(-4)}`;
}

export function formatGwei(wei: string | bigint): string {
  return `${formatUnits(wei, 9)} gwei`;
}
