/**
 * The store-backed read methods: GetIntent, GetIntentReceipt, SearchIntents, GetIntentHistory,
 * GetIntentTransactionHistory. Every read is scoped to the caller's project: another project's
 * intent is NotFound, and `byProjectId` naming another project is PermissionDenied.
 */
import { INTENT_PROTOCOL } from '../../../intents/services/check-quote-options.ts';
import type { IntentReceiptRecord, Store } from '../../../store/index.ts';
import type { ApiDeps, ApiServices, CallContext } from '../../context.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError } from '../../errors/rpc-errors.ts';
import type { MethodResponse } from '../../schemas/methods.ts';
import type { Page as WirePage } from '../../schemas/receipt.ts';
import { createBalanceReader } from './balances.ts';
import { createCachedReads } from './cached-reads.ts';
import { createHistoryPageCache } from './history-page-cache.ts';
import { createReceiptCache } from './receipt-cache.ts';
import { historyEntryToWire, intentToWire, summaryToWire } from './to-wire.ts';

export interface ReadHandlersOptions {
  /** Finished intents whose serialised receipts are kept (0 turns the cache off); default RECEIPT_CACHE_MAX_INTENTS. */
  receiptCacheIntents?: number | undefined;
  /** Bytes of whole GetIntentHistory pages kept (0 turns that cache off); default HISTORY_PAGE_CACHE_MAX_BYTES. */
  historyPageCacheBytes?: number | undefined;
}

export function createReadHandlers(
  deps: ApiDeps,
  store: Store,
  options: ReadHandlersOptions = {},
): ApiServices {
  const readBalances = createBalanceReader(deps, store);
  const receipts = createReceiptCache({ events: store.events, maxIntents: options.receiptCacheIntents });
  const pages = createHistoryPageCache({
    events: store.events,
    receipts,
    maxBytes: options.historyPageCacheBytes,
  });
  const cached = createCachedReads(deps, store, receipts, pages);
  const project = (ctx: CallContext, byProjectId?: number): number => {
    const own = ctx.projectId!;
    if (byProjectId !== undefined && byProjectId !== own) {
      throw new PermissionDeniedError(
        `byProjectId: project ${byProjectId} is not the project of this access key`,
      );
    }
    return own;
  };
  const notFound = (intentId: string) => new NotFoundError(`intent ${intentId} not found`);

  return {
    GetIntent: async ({ intentId }, ctx) => {
      const record = await store.intents.get({ projectId: project(ctx), intentId: intentId.toLowerCase() });
      if (!record) throw notFound(intentId);
      return { intent: intentToWire(record) };
    },
    GetIntentReceipt: async ({ intentId }, ctx) => {
      const answer = await cached.receipt<MethodResponse<'GetIntentReceipt'>>({
        projectId: project(ctx),
        intentId: intentId.toLowerCase(),
        dialect: ctx.dialect,
      });
      if (!answer) throw notFound(intentId);
      return answer;
    },
    SearchIntents: async (input, ctx) => {
      const { byProjectId, byEdgeAddress, byEdgeRail, byEdgeMode, ...filters } = input;
      const projectId = project(ctx, byProjectId);
      // No intent here has a Solana/Tron edge: an edge filter matches none.
      if (byEdgeAddress !== undefined || byEdgeRail !== undefined || byEdgeMode !== undefined) {
        return { intents: [] };
      }
      const lowered = Object.fromEntries(
        Object.entries(filters).map(([k, v]) => [k, typeof v === 'string' ? v.toLowerCase() : v]),
      );
      const records = await store.intents.search({ ...lowered, projectId });
      return { intents: records.map(intentToWire) };
    },
    GetIntentHistory: async (input, ctx) => {
      const filter = {
        projectId: project(ctx, input.byProjectId),
        ...(input.byOwnerAddress && { ownerAddress: input.byOwnerAddress.toLowerCase() }),
        ...(input.byParticipantAddresses?.length && {
          participantAddresses: input.byParticipantAddresses.map((a) => a.toLowerCase()),
        }),
        ...(input.byStatuses && { statuses: input.byStatuses }),
        ...(input.byStatus && { status: input.byStatus }),
        ...(input.originChainId !== undefined && { originChainId: input.originChainId }),
        ...(input.destinationChainId !== undefined && { destinationChainId: input.destinationChainId }),
        ...(input.originTokenAddress && { originTokenAddress: input.originTokenAddress.toLowerCase() }),
        ...(input.destinationTokenAddress && {
          destinationTokenAddress: input.destinationTokenAddress.toLowerCase(),
        }),
        ...(input.fromTime !== undefined && { fromTime: input.fromTime }),
        ...(input.toTime !== undefined && { toTime: input.toTime }),
        ...(input.page && { page: input.page }),
      };
      refuseProviderFilters(input);
      // Every intent here is of the one protocol this server runs (v1) and none has an edge: such filters
      // match all of them, or none.
      const edge = input.byEdgeAddress ?? input.byEdgeRail ?? input.byEdgeMode;
      if (edge !== undefined || (input.byIntentProtocol ?? INTENT_PROTOCOL) !== INTENT_PROTOCOL) {
        return { intents: [] };
      }
      const withBalances = input.includeBalances || input.onlyRecoverable;
      if (!withBalances) return cached.history({ filter, dialect: ctx.dialect });
      const page = await store.intents.history(filter);
      const held = await readBalances(
        filter.projectId,
        page.intents.map((r) => r.intent),
      );
      const shown = input.onlyRecoverable
        ? page.intents.filter((r) => held.get(r.intent.intentId).recoverable)
        : page.intents;
      const intents = shown.map((record: IntentReceiptRecord) => {
        const { balances, hasBalance } = held.get(record.intent.intentId);
        return { ...historyEntryToWire(deps, record, ctx.dialect), balances, hasBalance };
      });
      return page.nextPage ? { intents, nextPage: page.nextPage as WirePage } : { intents };
    },
    GetIntentTransactionHistory: async (input, ctx) => {
      const page = await store.intents.history({
        projectId: project(ctx, input.byProjectId),
        ...(input.byOwnerAddress && { ownerAddress: input.byOwnerAddress.toLowerCase() }),
        ...(input.page && { page: input.page }),
      });
      const intents = page.intents.map((r) => summaryToWire(deps, r, ctx.dialect));
      return page.nextPage ? { intents, nextPage: page.nextPage as WirePage } : { intents };
    },
  };
}

/**
 * The route providers of an intent are in its stored quote, not in a column the history's keyset pages can
 * filter on; a filter ignored would answer intents of every provider, so it is refused instead.
 */
function refuseProviderFilters(input: { bySwapProvider?: string; byBridgeProvider?: string }): void {
  for (const field of ['bySwapProvider', 'byBridgeProvider'] as const) {
    // AUTO names every provider: it filters nothing.
    if (input[field] !== undefined && input[field] !== 'AUTO') {
      throw new InvalidArgumentError(
        field,
        'is not supported by this server: route providers are not a column its history pages filter on; read quote.routeProviders of the intents instead',
      );
    }
  }
}
