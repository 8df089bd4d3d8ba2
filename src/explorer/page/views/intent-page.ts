/**
 * One intent: its status, what happens next, the timeline, each transaction and the fees. It follows the
 * intent live (live-updates.ts) until it is done, without a reload; each change is announced to screen readers.
 */
import { h, replace } from '../dom.ts';
import { formatTime, shortHex } from '../format.ts';
import { watchReceipt } from '../live-updates.ts';
import { type PriceUsd, quotePrices } from '../prices.ts';
import type { Intent, IntentDetails, IntentReceipt } from '../types.ts';
import type { ViewContext } from '../view-context.ts';
import { amountText, errorBox, hex, loading, row, statusBadge } from './common.ts';
import { fees } from './fees.ts';
import { nextSteps } from './next-steps.ts';
import { timeline } from './timeline.ts';
import { transactions } from './transactions.ts';

const FINAL = new Set(['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID']);

export async function intentPage(ctx: ViewContext, main: HTMLElement, intentId: string, highlight?: string) {
  replace(main, h('h1', { tabindex: -1 }, 'Intent'), loading('the intent'));
  const { api, signal } = ctx;
  let receipt: IntentReceipt;
  let intent: Intent | undefined;
  let details: IntentDetails | undefined;
  try {
    const [r, i, d] = await Promise.all([
      api.call<{ intentReceipt: IntentReceipt }>('GetIntentReceipt', { intentId }, signal),
      api.call<{ intent: Intent }>('GetIntent', { intentId }, signal).catch(() => undefined),
      api.details(intentId, signal).catch(() => undefined),
    ]);
    receipt = r.intentReceipt;
    intent = i?.intent;
    details = d;
  } catch (error) {
    if (!signal.aborted) replace(main, h('h1', { tabindex: -1 }, 'Intent'), errorBox(error));
    return;
  }
  const price = quotePrices(intent, receipt, ctx.catalogue);
  const draw = () => replace(main, ...page(ctx, receipt, intent, details, price, highlight));
  draw();
  if (highlight) document.getElementById(`tx-${highlight.toLowerCase()}`)?.scrollIntoView();
  if (FINAL.has(receipt.status)) return;
  watchReceipt({
    api,
    intentId,
    seen: statesOf(receipt),
    signal,
    onUpdate: async (update) => {
      const before = receipt.status;
      receipt = update.receipt;
      // Block and gas of the transactions that just appeared; the page keeps the old ones if this fails.
      details = (await api.details(intentId, signal).catch(() => undefined)) ?? details;
      if (signal.aborted) return;
      draw();
      if (receipt.status !== before) ctx.announce(`The intent is now ${receipt.status}.`);
    },
  });
}

function statesOf(receipt: IntentReceipt): string[] {
  return [
    receipt.depositTransaction,
    receipt.originTransaction,
    receipt.destinationTransaction,
    receipt.refundTransaction,
  ].flatMap((t) => (t ? [t.status] : []));
}

function page(
  ctx: ViewContext,
  receipt: IntentReceipt,
  intent: Intent | undefined,
  details: IntentDetails | undefined,
  price: PriceUsd,
  highlight: string | undefined,
): HTMLElement[] {
  const { catalogue } = ctx;
  const s = receipt.summary;
  const amount = (chainId: number, token: string | undefined, value: string | undefined) =>
    token && value
      ? amountText({ catalogue, chainId, token, amount: value, priceUsd: price(chainId, token) })
      : '—';
  return [
    h('h1', { tabindex: -1 }, 'Intent ', h('span', { class: 'intent-id' }, shortHex(receipt.intentId, 10))),
    h(
      'p',
      { class: 'status-line' },
      'Status: ',
      h('strong', { id: 'intent-status' }, statusBadge(receipt.status)),
    ),
    h(
      'dl',
      { class: 'summary' },
      row('Intent id', hex(receipt.intentId)),
      row(
        'Sends',
        `${amount(receipt.originChainId, s.originTokenAddress, s.originTokenAmount)} on ${catalogue.chainName(receipt.originChainId)}`,
      ),
      row(
        'Receives',
        `${amount(receipt.destinationChainId, s.destinationTokenAddress, s.destinationTokenAmount)} on ${catalogue.chainName(receipt.destinationChainId)}`,
      ),
      row('Owner', hex(receipt.ownerAddress)),
      s.destinationToAddress && row('Recipient', hex(s.destinationToAddress)),
      row('Deposit address', hex(s.originIntentAddress)),
      row('Quote expires', formatTime(s.expiresAt)),
    ),
    h(
      'section',
      { 'aria-labelledby': 'next-title', class: 'next' },
      h('h2', { id: 'next-title' }, 'What happens next'),
      ...nextSteps(receipt, details, catalogue, price).map((line) => h('p', null, line)),
    ),
    h(
      'section',
      { 'aria-labelledby': 'timeline-title' },
      h('h2', { id: 'timeline-title' }, 'Timeline'),
      timeline(receipt, catalogue),
    ),
    h(
      'section',
      { 'aria-labelledby': 'transactions-title' },
      h('h2', { id: 'transactions-title' }, 'Transactions'),
      ...transactions(receipt, details, catalogue, price, highlight),
    ),
    intent
      ? h(
          'section',
          { 'aria-labelledby': 'fees-title' },
          h('h2', { id: 'fees-title' }, 'Fees'),
          fees(intent, receipt.originChainId, catalogue),
        )
      : h('p', null, 'The quote of this intent is no longer stored, so its fees cannot be shown.'),
  ];
}
