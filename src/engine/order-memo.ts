/**
 * The orders this process decoded from origin receipts, by origin transaction hash: the origin step hands
 * its order to fill, settle and order-refund, which read the same receipt back otherwise (three
 * eth_getTransactionReceipt per intent). A cache of immutable data (a mined receipt's OrderOpened event):
 * a miss, after a restart or in another worker, reads the chain as before.
 */
import type { OrderData } from '../contracts/types.ts';
import { ORDER_MEMO_SIZE } from './constants.ts';

export interface OrderMemo {
  get(originHash: string): OrderData | undefined;
  remember(originHash: string, order: OrderData): void;
}

export function createOrderMemo(size: number = ORDER_MEMO_SIZE): OrderMemo {
  // Insertion order is age: the oldest entry goes first once the memo is full.
  const orders = new Map<string, OrderData>();
  return {
    get: (originHash) => orders.get(originHash.toLowerCase()),
    remember(originHash, order) {
      orders.set(originHash.toLowerCase(), order);
      if (orders.size > size) orders.delete(orders.keys().next().value!);
    },
  };
}
