/**
 * The receipt's states in the order of the lifecycle: quoted, started, each transaction (with its chain and
 * hash), finished; each at the time the service recorded it, with the time since the one before. The
 * service's clock, not the blocks': block times have whole seconds only, and a chain's clock is its own
 * (the transactions below show their block times).
 */
import type { Catalogue } from '../catalogue.ts';
import { h } from '../dom.ts';
import { formatDuration, formatTime } from '../format.ts';
import type { IntentReceipt, IntentTransaction } from '../types.ts';
import { hex, statusBadge } from './common.ts';

interface Entry {
  label: string;
  at: string;
  status?: string;
  transaction?: IntentTransaction;
}

const KINDS = ['deposit', 'origin', 'destination', 'refund'] as const;
const LABELS: Record<(typeof KINDS)[number], string> = {
  deposit: 'Deposit',
  origin: 'Origin',
  destination: 'Destination',
  refund: 'Refund',
};

export function timeline(receipt: IntentReceipt, catalogue: Catalogue): HTMLElement {
  const s = receipt.summary;
  const entries: Entry[] = [{ label: 'Quoted', at: s.createdAt }];
  if (s.startedAt) entries.push({ label: 'Execution started', at: s.startedAt });
  for (const kind of KINDS) {
    const t = receipt[`${kind}Transaction`];
    const at = t?.updatedAt ?? t?.txnMinedAt;
    // A row still UNKNOWN is what the receipt expects, not something that happened.
    if (!t || !at || t.status === 'UNKNOWN') continue;
    entries.push({ label: LABELS[kind], at, status: t.status, transaction: t });
  }
  if (s.finishedAt) entries.push({ label: 'Finished', at: s.finishedAt, status: receipt.status });
  return h(
    'ol',
    { class: 'timeline' },
    entries.map((entry, i) => {
      const previous = entries[i - 1];
      const since = previous && Date.parse(entry.at) - Date.parse(previous.at);
      const t = entry.transaction;
      return h(
        'li',
        { 'data-step': entry.label.toLowerCase() },
        h('span', { class: 'timeline-label' }, entry.label),
        entry.status && statusBadge(entry.status),
        h('time', { datetime: entry.at }, formatTime(entry.at)),
        since !== undefined && since >= 0 && h('span', { class: 'duration' }, `+${formatDuration(since)}`),
        t?.txnHash &&
          h('span', { class: 'timeline-tx' }, `${catalogue.chainName(t.chainId)} `, hex(t.txnHash)),
      );
    }),
  );
}
