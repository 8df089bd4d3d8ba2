/** Nearest-rank percentiles of a sample (ms). */
export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return { p50: at(50), p90: at(90), p99: at(99), max: sorted.at(-1) ?? Number.NaN };
}
