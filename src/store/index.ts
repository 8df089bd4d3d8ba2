/** The storage subsystem's public surface. */

export { DEFAULT_RATE_LIMIT_PER_MINUTE, hashAccessKey } from './access-keys.ts';
export { type CreateStoreOptions, createStore, isPostgresUrl } from './create-store.ts';
export * from './errors.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './intent-history.ts';
export type { ReceiptWireFields } from './receipt-fields.ts';
export { MAX_SEARCH_RESULTS } from './search-intents.ts';
export { isTerminal } from './statuses.ts';
export {
  DEFAULT_DATA_DIR,
  resolveDataDir,
  resolveStoreLocation,
  SQLITE_FILE_NAME,
  type StoreLocation,
} from './store-location.ts';
export type * from './types.ts';
export { INTENT_STATUSES, TRANSACTION_KINDS, TRANSACTION_STATUSES } from './types.ts';
