/**
 * The execution engine's public surface (fixed interface shared with the intent services).
 * The intent services call `requestExecution` after ExecuteIntent validation; the engine owns
 * every status change from EXECUTING onwards and every receipt-row update.
 */
import type { IntentRecord, IntentStatus } from '../store/types.ts';

export interface IntentEngine {
  /**
   * ExecuteIntent calls this after validation; idempotent (a repeat is harmless). depositTransactionHash may be
   * unmined. `intent` is the row the caller has just read, so the engine does not read it again. Resolves to
   * the intent's status as the call left it (undefined: unknown, read it).
   */
  requestExecution(input: {
    intentId: string;
    depositTransactionHash?: `0x${string}`;
    depositSignature?: unknown;
    intent?: IntentRecord;
  }): Promise<IntentStatus | undefined>;
  /**
   * RetryIntent, after its checks: a FAILED intent runs again from its deposit step with the replacement
   * deposit's hash. False when the intent is no longer FAILED (nothing was written).
   */
  retryExecution(input: { intentId: string; depositTransactionHash: `0x${string}` }): Promise<boolean>;
  /**
   * The gasless recovery: the relayer sends the owner's signed recovery (`data` to `to`, calldata whose fee
   * argument the relayer keeps) and answers once it is mined.
   */
  relayRecovery(input: {
    intentId: string;
    chainId: number;
    to: `0x${string}`;
    data: `0x${string}`;
    nonce: bigint;
  }): Promise<{ hash: `0x${string}`; status: 'success' | 'reverted'; minedAt: Date }>;
  /** Starts the workers (step runner, deposit watcher for COMMITTED intents, rebroadcaster). */
  start(): Promise<void>;
  /**
   * Stops taking new work and waits for in-flight steps, up to a bound (ENGINE_STOP_WAIT_MS); the steps still
   * running then are handed back (nothing new signed, their leases released) for another worker.
   */
  stop(): Promise<void>;
}
