/**
 * The table of bench/e2e.ts --db both: per round each store's rate, Postgres ÷ SQLite, each store's p50 ÷
 * bare and the load; their medians over the rounds; and the marks on the medians.
 */
import { MAX_AUTOMINE_LATENCY_RATIO, MIN_POSTGRES_TO_SQLITE } from './e2e-marks.ts';
import type { Store } from './e2e-store-run.ts';
import type { CpuPerIntent, E2eSummary } from './e2e-summary.ts';

export interface StoreRound {
  /** Its number in the command's progress lines (a round set aside after a failed run has none here). */
  round: number;
  first: Store;
  sqlite: E2eSummary;
  postgres: E2eSummary;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const latencyRatio = (s: E2eSummary) => s.service.p50Ms / s.bare.p50Ms;
const rate = (s: E2eSummary) => s.service.intentsPerSecond;

export function storesReport(rounds: readonly StoreRound[]): { lines: string[]; met: boolean } {
  const header = [
    'round',
    'first',
    'SQLite intents/s',
    'Postgres intents/s',
    'Postgres ÷ SQLite',
    'SQLite p50 ÷ bare',
    'Postgres p50 ÷ bare',
    'load (SQLite, Postgres)',
  ];
  const perRound = rounds.map((r) => ({
    sqliteRate: rate(r.sqlite),
    postgresRate: rate(r.postgres),
    ratio: rate(r.postgres) / rate(r.sqlite),
    sqliteLatency: latencyRatio(r.sqlite),
    postgresLatency: latencyRatio(r.postgres),
  }));
  const rows = rounds.map((r, i) => {
    const p = perRound[i]!;
    return [
      String(r.round),
      r.first,
      p.sqliteRate.toFixed(1),
      p.postgresRate.toFixed(1),
      p.ratio.toFixed(2),
      p.sqliteLatency.toFixed(2),
      p.postgresLatency.toFixed(2),
      `${r.sqlite.load1.toFixed(2)}, ${r.postgres.load1.toFixed(2)}`,
    ];
  });
  const of = (key: keyof (typeof perRound)[number]) => median(perRound.map((p) => p[key]));
  const medians = {
    ratio: of('ratio'),
    sqliteLatency: of('sqliteLatency'),
    postgresLatency: of('postgresLatency'),
  };
  rows.push([
    'median',
    '',
    of('sqliteRate').toFixed(1),
    of('postgresRate').toFixed(1),
    medians.ratio.toFixed(2),
    medians.sqliteLatency.toFixed(2),
    medians.postgresLatency.toFixed(2),
    '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  // SQLite's statements run inside the process: it has no database column.
  const medianOf = (store: Store) => (pick: (c: CpuPerIntent) => number) =>
    median(rounds.map((r) => pick(r[store].service.cpuPerIntent))).toFixed(0);
  const cpuOf = (store: Store) => {
    const m = medianOf(store);
    const database = store === 'postgres' ? ` + database ${m((c) => c.database ?? 0)}` : '';
    return `process ${m((c) => c.process)} + chains ${m((c) => c.chains)}${database}`;
  };
  // The main thread sets the rate: its busy time is its own CPU plus the time it waited for a core.
  const threadOf = (store: Store) => {
    const m = medianOf(store);
    return `busy ${m((c) => c.busy)} = own ${m((c) => c.mainThread)} (kernel ${m((c) => c.mainThreadSystem)}) + wait ${m((c) => c.busy - c.mainThread)}`;
  };
  const ratioMet = medians.ratio >= MIN_POSTGRES_TO_SQLITE;
  const latencyMet = medians.postgresLatency <= MAX_AUTOMINE_LATENCY_RATIO;
  const mark = (met: boolean, text: string) => `${met ? 'met   ' : 'MISSED'}  ${text}`;
  const lines = [
    '',
    "the service's automine runs; p50 ÷ bare within the same run; load = 1-minute load average at each run's end",
    '',
    format(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(format),
    '',
    `CPU ms per intent, median of the rounds: SQLite ${cpuOf('sqlite')}; Postgres ${cpuOf('postgres')}`,
    `main thread ms per intent, medians: SQLite ${threadOf('sqlite')}; Postgres ${threadOf('postgres')}`,
    '',
    mark(
      ratioMet,
      `median Postgres ÷ SQLite intents/s ${medians.ratio.toFixed(2)} (≥ ${MIN_POSTGRES_TO_SQLITE})`,
    ),
    mark(
      latencyMet,
      `median Postgres p50 ${medians.postgresLatency.toFixed(2)} × bare (≤ ${MAX_AUTOMINE_LATENCY_RATIO}); SQLite's ${medians.sqliteLatency.toFixed(2)} × bare (information, not a mark)`,
    ),
  ];
  return { lines, met: ratioMet && latencyMet };
}
