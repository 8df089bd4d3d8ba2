/** What the intent services need (built once by the caller) and what they hand the API. */
import type { Address, PublicClient } from 'viem';
import type { ApiServices } from '../../api/context.ts';
import type { IntentEngine } from '../../engine/types.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { Logger } from '../../internal/logger.ts';
import type { SolverInventory } from '../../solver/create-solver-inventory.ts';
import type { Store } from '../../store/index.ts';

export interface IntentPrices {
  getPriceUsd(chainId: number, token: string): Promise<number | undefined> | number | undefined;
}

export interface IntentServicesConfig {
  /** The service fee in basis points charged on every quote (0 when absent). */
  serviceFeeBps?: bigint | undefined;
  /** The OriginSettler's refund grace in seconds (the plan's default when absent). */
  settlementGraceSeconds?: bigint | undefined;
  /** `trailsVersion` / `serviceVersion` in quotes. */
  version?: string | undefined;
  /** Wall clock; tests drive expiry with it. */
  now?: (() => Date) | undefined;
  /** Hold time of WaitIntentReceipt (ms); default WAIT_HOLD_MS. */
  waitHoldMs?: number | undefined;
}

export interface IntentServicesDeps {
  store: Store;
  chains: readonly ChainConfig[];
  /** A read client per configured chain id. */
  clients: ReadonlyMap<number, PublicClient>;
  prices: IntentPrices;
  engine: Pick<IntentEngine, 'requestExecution'>;
  /** The operator's public addresses: origin executor, solver, fee collector. */
  operator: { relayer: Address; solver: Address; feeCollector: Address };
  config?: IntentServicesConfig | undefined;
  log: Logger;
  /** The solver's inventory net of open orders (quotes check it, commits reserve it); default: built here. */
  inventory?: SolverInventory | undefined;
}

export type IntentMethods =
  | 'QuoteIntent'
  | 'CommitIntent'
  | 'ExecuteIntent'
  | 'AbortIntent'
  | 'WaitIntentReceipt';

export type IntentServices = Required<Pick<ApiServices, IntentMethods>> & {
  /** Answers every held WaitIntentReceipt at once (server shutdown). */
  close(): void;
};
