/**
 * The project's latest intents (GetIntentHistory, newest first, pages of 20), filtered by status and by
 * origin and destination chain. The filters are in the page's address, so a filtered list can be shared.
 */
import { h, replace } from '../dom.ts';
import { paths } from '../router.ts';
import { INTENT_STATUSES, type IntentHistoryEntry } from '../types.ts';
import type { ViewContext } from '../view-context.ts';
import { errorBox, loading } from './common.ts';
import { type IntentRow, intentRows } from './intent-rows.ts';

const PAGE_SIZE = 20;

interface Filters {
  status?: string;
  origin?: number;
  destination?: number;
}

export async function intentList(ctx: ViewContext, main: HTMLElement, filters: Filters): Promise<void> {
  const results = h('div', { class: 'results' }, loading('intents'));
  replace(main, h('h1', { tabindex: -1 }, 'Latest intents'), filterForm(ctx, filters), results);
  let nextPage: unknown;
  const rows: IntentRow[] = [];
  const more = h('button', { type: 'button', class: 'more' }, 'Show older intents');
  const load = async () => {
    try {
      const answer = await ctx.api.call<{ intents: IntentHistoryEntry[]; nextPage?: { more?: boolean } }>(
        'GetIntentHistory',
        {
          page: nextPage ?? { pageSize: PAGE_SIZE },
          ...(filters.status && { byStatus: filters.status }),
          ...(filters.origin !== undefined && { originChainId: filters.origin }),
          ...(filters.destination !== undefined && { destinationChainId: filters.destination }),
        },
        ctx.signal,
      );
      rows.push(...answer.intents.map(toRow));
      nextPage = answer.nextPage;
      replace(
        results,
        rows.length === 0 ? h('p', null, 'No intents match.') : intentRows(rows, ctx.catalogue),
        answer.nextPage?.more && more,
      );
    } catch (error) {
      if (!ctx.signal.aborted) replace(results, errorBox(error));
    }
  };
  more.addEventListener('click', () => void load());
  await load();
}

function toRow(entry: IntentHistoryEntry): IntentRow {
  const r = entry.receipt;
  return {
    intentId: entry.intentId,
    status: entry.status,
    ownerAddress: r.ownerAddress,
    originChainId: r.originChainId,
    destinationChainId: r.destinationChainId,
    originTokenAddress: r.summary.originTokenAddress,
    originTokenAmount: r.summary.originTokenAmount,
    createdAt: r.summary.createdAt,
  };
}

function filterForm(ctx: ViewContext, filters: Filters): HTMLFormElement {
  const chainOptions = (selected: number | undefined) => [
    h('option', { value: '' }, 'Any chain'),
    ...ctx.catalogue.chains.map((c) => h('option', { value: c.id, selected: c.id === selected }, c.name)),
  ];
  const status = h(
    'select',
    { id: 'filter-status', name: 'status' },
    h('option', { value: '' }, 'Any status'),
    INTENT_STATUSES.map((s) => h('option', { value: s, selected: s === filters.status }, s)),
  );
  const origin = h('select', { id: 'filter-origin', name: 'origin' }, chainOptions(filters.origin));
  const destination = h(
    'select',
    { id: 'filter-destination', name: 'destination' },
    chainOptions(filters.destination),
  );
  const number = (value: string) => (value === '' ? undefined : Number(value));
  return h(
    'form',
    {
      class: 'filters',
      'aria-label': 'Filter intents',
      onsubmit: (event: Event) => {
        event.preventDefault();
        ctx.navigate(
          paths.list({
            ...(status.value && { status: status.value }),
            ...(number(origin.value) !== undefined && { origin: number(origin.value)! }),
            ...(number(destination.value) !== undefined && { destination: number(destination.value)! }),
          }),
        );
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'filter-status' }, 'Status'), status),
    h('div', { class: 'field' }, h('label', { for: 'filter-origin' }, 'Origin chain'), origin),
    h('div', { class: 'field' }, h('label', { for: 'filter-destination' }, 'Destination chain'), destination),
    h('button', { type: 'submit' }, 'Apply filters'),
  );
}
