/**
 * The orders this process decoded from origin receipts, by origin transaction hash: the origin step hands
 * its order to fill, settle and order-refund, which read the same receipt back otherwise (three
 * eth_getTransactionReceipt per intent). A cache of immutable data (a mined receipt's OrderOpened event):
 * a miss, after a restart or in another worker, reads the chain as before.
 *
 * Also by intent, for an origin execution this process recorded as succeeded: those steps then need not
 * read the receipt rows for its hash (an origin row that SUCCEEDED keeps its hash and status).
 */
import { LRUCache } from 'lru-cache';
import type { OrderData } from '../contracts/types.ts';
import { ORDER_MEMO_SIZE } from './constants.ts';

export interface OrderMemo {
  get(originHash: string): OrderData | undefined;
  /** The order of an intent whose origin execution was remembered with its intent id. */
  ofIntent(intentId: string): OrderData | undefined;
  /** `intentId` only once the intent's origin row is written SUCCEEDED with this hash. */
  remember(originHash: string, order: OrderData, intentId?: string): void;
}

export function createOrderMemo(size: number = ORDER_MEMO_SIZE): OrderMemo {
  // The least recently used entry goes first once a memo is full.
  const orders = new LRUCache<string, OrderData>({ max: size });
  const byIntent = new LRUCache<string, OrderData>({ max: size });
  return {
    get: (originHash) => orders.get(originHash.toLowerCase()),
    ofIntent: (intentId) => byIntent.get(intentId.toLowerCase()),
    remember(originHash, order, intentId) {
      orders.set(originHash.toLowerCase(), order);
      if (intentId !== undefined) byIntent.set(intentId.toLowerCase(), order);
    },
  };
}
