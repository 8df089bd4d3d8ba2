/**
 * Search (SearchIntents `byQueryString`: an intent id, a transaction hash, an owner address or either intent
 * address) and an address's intents. One match opens its intent page at once; several are listed.
 */
import { h, replace } from '../dom.ts';
import { paths } from '../router.ts';
import type { ViewContext } from '../view-context.ts';
import { errorBox, loading } from './common.ts';
import { type IntentRow, intentRows } from './intent-rows.ts';

/** The members of a SearchIntents Intent a row shows. */
interface SearchedIntent {
  intentId: string;
  status: string;
  ownerAddress: string;
  originChainId: number;
  destinationChainId: number;
  depositTransaction: { tokenAddress: string; amount: string };
  createdAt?: string;
}

function toRow(intent: SearchedIntent): IntentRow {
  return {
    intentId: intent.intentId,
    status: intent.status,
    ownerAddress: intent.ownerAddress,
    originChainId: intent.originChainId,
    destinationChainId: intent.destinationChainId,
    originTokenAddress: intent.depositTransaction.tokenAddress,
    originTokenAmount: intent.depositTransaction.amount,
    createdAt: intent.createdAt,
  };
}

const HEX_QUERY = /^0x[0-9a-fA-F]{40}$|^0x[0-9a-fA-F]{64}$/;

export async function searchResults(ctx: ViewContext, main: HTMLElement, query: string, title?: string) {
  const heading = title ?? `Search: ${query}`;
  replace(main, h('h1', { tabindex: -1 }, heading), loading('matches'));
  const q = query.trim();
  if (!HEX_QUERY.test(q)) {
    replace(
      main,
      h('h1', { tabindex: -1 }, heading),
      h(
        'p',
        { class: 'error', role: 'alert' },
        'Search takes an intent id or a transaction hash (0x and 64 hex digits) or an address (0x and 40 hex digits).',
      ),
    );
    return;
  }
  try {
    const { intents } = await ctx.api.call<{ intents: SearchedIntent[] }>(
      'SearchIntents',
      { byQueryString: q },
      ctx.signal,
    );
    if (intents.length === 1 && q.length === 66) {
      // An intent id or a transaction hash names one intent: show it, at the transaction if it was a hash.
      const [only] = intents;
      const isIntentId = only!.intentId.toLowerCase() === q.toLowerCase();
      ctx.navigate(`${paths.intent(only!.intentId)}${isIntentId ? '' : `#tx-${q.toLowerCase()}`}`, {
        replace: true,
      });
      return;
    }
    replace(
      main,
      h('h1', { tabindex: -1 }, heading),
      intents.length === 0
        ? h('p', null, 'Nothing of this project matches.')
        : intentRows(intents.map(toRow), ctx.catalogue),
    );
  } catch (error) {
    if (!ctx.signal.aborted) replace(main, h('h1', { tabindex: -1 }, heading), errorBox(error));
  }
}
