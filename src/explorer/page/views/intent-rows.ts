/** A list of intents as rows a person scans: status, route, amount, owner, when; each links to its page. */
import type { Catalogue } from '../catalogue.ts';
import { h } from '../dom.ts';
import { formatTime, formatUnits, shortHex } from '../format.ts';
import { paths } from '../router.ts';
import { link, statusBadge } from './common.ts';

export interface IntentRow {
  intentId: string;
  status: string;
  ownerAddress: string;
  originChainId: number;
  destinationChainId: number;
  originTokenAddress: string;
  originTokenAmount: string;
  createdAt?: string | undefined;
}

export function intentRows(rows: IntentRow[], catalogue: Catalogue): HTMLElement {
  return h(
    'table',
    { class: 'intents' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['Intent', 'Status', 'Route', 'Amount', 'Owner', 'Created'].map((title) =>
          h('th', { scope: 'col' }, title),
        ),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((r) => {
        const token = catalogue.token(r.originChainId, r.originTokenAddress);
        const amount = token
          ? `${formatUnits(r.originTokenAmount, token.decimals)} ${token.symbol}`
          : r.originTokenAmount;
        return h(
          'tr',
          { 'data-intent-id': r.intentId },
          h('td', { 'data-label': 'Intent' }, link(paths.intent(r.intentId), shortHex(r.intentId, 10))),
          h('td', { 'data-label': 'Status' }, statusBadge(r.status)),
          h(
            'td',
            { 'data-label': 'Route' },
            `${catalogue.chainName(r.originChainId)} → ${catalogue.chainName(r.destinationChainId)}`,
          ),
          h('td', { 'data-label': 'Amount' }, amount),
          h(
            'td',
            { 'data-label': 'Owner' },
            h('code', { class: 'hex', title: r.ownerAddress }, shortHex(r.ownerAddress)),
          ),
          h('td', { 'data-label': 'Created' }, formatTime(r.createdAt)),
        );
      }),
    ),
  );
}
