/**
 * What a receipt shows of an intent's stored wire intent (`intent_json`, several kB): receiptToWire
 * (src/api/methods/reads/to-wire.ts) reads these fields and no others. The wire intent never changes once
 * quoted, so the intents repo picks them once per intent and keeps them, instead of reading and parsing the
 * whole text on every receipt read (each WaitIntentReceipt wake-up is one).
 */
import { LRUCache } from 'lru-cache';

export interface ReceiptWireFields {
  quoteRequest?: {
    tradeType?: 'EXACT_INPUT' | 'EXACT_OUTPUT';
    destinationToAddress?: string;
    destinationCallData?: string;
    destinationCallValue?: unknown;
    mode?: string;
  };
  quote?: { routeProviders?: string[] };
  expiresAt?: string;
  /** The operator's transactions as quoted: their receipt rows show these ids, fee quotes and bridge gas. */
  originMetaTxn?: QuotedMetaTxn;
  destinationMetaTxn?: QuotedMetaTxn;
  fees?: { originGas?: QuotedGasFee; destinationGas?: QuotedGasFee };
}

export interface QuotedMetaTxn {
  id?: string;
  /** Decimal string (a wire amount). */
  bridgeGas?: string;
}

export interface QuotedGasFee {
  /** The gas fee in the fee token's base units, a decimal string. */
  metaTxnGasQuote?: string;
}

/**
 * Intents whose receipt fields are kept: every intent in flight and then some (~0.5 kB each, ~2 MB in all).
 * Beyond it the least recently used is dropped and read again from its text when next asked for.
 */
export const RECEIPT_FIELDS_MEMO_SIZE = 4_096;

export function pickReceiptFields(intentJson: string): ReceiptWireFields {
  const stored = JSON.parse(intentJson) as ReceiptWireFields & Record<string, unknown>;
  const request = stored.quoteRequest;
  const picked: ReceiptWireFields = {};
  if (request) {
    picked.quoteRequest = {
      ...(request.tradeType !== undefined && { tradeType: request.tradeType }),
      ...(request.destinationToAddress !== undefined && {
        destinationToAddress: request.destinationToAddress,
      }),
      ...(request.destinationCallData !== undefined && { destinationCallData: request.destinationCallData }),
      ...(request.destinationCallValue !== undefined && {
        destinationCallValue: request.destinationCallValue,
      }),
      ...(request.mode !== undefined && { mode: request.mode }),
    };
  }
  if (stored.quote) {
    picked.quote = {
      ...(stored.quote.routeProviders !== undefined && { routeProviders: stored.quote.routeProviders }),
    };
  }
  if (stored.expiresAt !== undefined) picked.expiresAt = stored.expiresAt;
  const origin = pickMetaTxn(stored.originMetaTxn);
  if (origin) picked.originMetaTxn = origin;
  const destination = pickMetaTxn(stored.destinationMetaTxn);
  if (destination) picked.destinationMetaTxn = destination;
  const originGas = pickGasFee(stored.fees?.originGas);
  const destinationGas = pickGasFee(stored.fees?.destinationGas);
  if (originGas || destinationGas)
    picked.fees = { ...(originGas && { originGas }), ...(destinationGas && { destinationGas }) };
  return picked;
}

function pickMetaTxn(metaTxn: QuotedMetaTxn | undefined): QuotedMetaTxn | undefined {
  if (!metaTxn) return undefined;
  return {
    ...(metaTxn.id !== undefined && { id: metaTxn.id }),
    ...(metaTxn.bridgeGas !== undefined && { bridgeGas: String(metaTxn.bridgeGas) }),
  };
}

function pickGasFee(fee: QuotedGasFee | undefined): QuotedGasFee | undefined {
  return fee?.metaTxnGasQuote === undefined ? undefined : { metaTxnGasQuote: fee.metaTxnGasQuote };
}

/** Picked fields per intent id, at most `size`; the least recently used entry goes first. */
export interface ReceiptFieldsMemo {
  get(intentId: string): ReceiptWireFields | undefined;
  set(intentId: string, fields: ReceiptWireFields): void;
}

export function createReceiptFieldsMemo(size = RECEIPT_FIELDS_MEMO_SIZE): ReceiptFieldsMemo {
  const kept = new LRUCache<string, ReceiptWireFields>({ max: size });
  return {
    get: (intentId) => kept.get(intentId),
    set(intentId, fields) {
      kept.set(intentId, fields);
    },
  };
}
