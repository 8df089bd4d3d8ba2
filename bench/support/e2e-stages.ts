/**
 * bench:e2e --stages: where a service intent's time goes, read from the store's event log after the run.
 * Every change of an intent's status or of one of its receipt rows is an event stamped with the time of the
 * change (migration 0009), so the gaps between an intent's consecutive events are its stages: the chain's
 * part (a deposit mining, a send waiting for its receipt) and the service's part (a step completing and the
 * next one starting, which is only statements and an event-loop turn or two). Comparing the runs of the two
 * stores shows which stages a store makes slower.
 */
import type { IntentEventRecord } from '../../src/store/index.ts';
import { percentiles } from './percentiles.ts';

/**
 * A transition is printed when at least this share of the run's intents went through it at the same
 * position: the common path, without the odd retry or late event of a few intents.
 */
const COMMON_SHARE = 0.5;

export interface StageGap {
  /** The transition's position in the intent's events (1: from the first event to the second). */
  position: number;
  from: string;
  to: string;
  intents: number;
  p50: number;
  p90: number;
}

export interface Stages {
  intents: number;
  /** From each intent's first event to its last (ms), p50. */
  firstToLastP50: number;
  gaps: StageGap[];
}

/** What an event changed: `intent <status>` or `<receipt row> <its status>`. */
function label(event: IntentEventRecord): string {
  const kind = event.transactionKind;
  return kind ? `${kind} ${event.receiptStates[kind] ?? '?'}` : `intent ${event.status}`;
}

export function stagesOf(events: readonly IntentEventRecord[]): Stages {
  const byIntent = new Map<string, IntentEventRecord[]>();
  for (const event of events) {
    const list = byIntent.get(event.intentId) ?? [];
    list.push(event);
    byIntent.set(event.intentId, list);
  }
  const gaps = new Map<string, { position: number; from: string; to: string; ms: number[] }>();
  const spans: number[] = [];
  for (const list of byIntent.values()) {
    list.sort((a, b) => a.seq - b.seq);
    spans.push(list.at(-1)!.createdAt.getTime() - list[0]!.createdAt.getTime());
    for (let i = 1; i < list.length; i++) {
      const from = label(list[i - 1]!);
      const to = label(list[i]!);
      const key = `${i} ${from} ${to}`;
      const gap = gaps.get(key) ?? { position: i, from, to, ms: [] };
      gap.ms.push(list[i]!.createdAt.getTime() - list[i - 1]!.createdAt.getTime());
      gaps.set(key, gap);
    }
  }
  const common = [...gaps.values()]
    .filter((g) => g.ms.length >= COMMON_SHARE * byIntent.size)
    .sort((a, b) => a.position - b.position)
    .map(({ position, from, to, ms }) => {
      const { p50, p90 } = percentiles(ms);
      return { position, from, to, intents: ms.length, p50, p90 };
    });
  return { intents: byIntent.size, firstToLastP50: percentiles(spans).p50, gaps: common };
}

export function formatStages(stages: Stages, database: string): string[] {
  return [
    '',
    `Stages of the service's intents (${database}; ms between an intent's consecutive events, from the event log; ${stages.intents} intents, first event to last p50 ${stages.firstToLastP50} ms):`,
    '',
    '| # | from | to | intents | p50 ms | p90 ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...stages.gaps.map((g) => `| ${g.position} | ${g.from} | ${g.to} | ${g.intents} | ${g.p50} | ${g.p90} |`),
  ];
}
