/**
 * Notices a chain that may have come back behind what the engine saw, and starts its restore of lost
 * transactions (sender.restoreLost, src/chains/restore-lost-transactions.ts), so a lost transaction that was
 * its key's last is sent again without waiting for that key's next send there. RuntimeStatus probes chains
 * only when asked; this keeps the engine's own view: one head read per chain every CHAIN_WATCH_INTERVAL_MS.
 * A restore runs when a chain answers again after failing, when its head goes back, at the first answer
 * after start (a crash mid-restore, a rollback while the engine was down), and every
 * LOST_TRANSACTIONS_CHECK_MS. stop() ends the rounds and awaits the restores this watch started: the engine
 * stops the sender's restores first (sender.stopRestoring), so that wait is bounded.
 */
import type { TransactionSender } from '../chains/create-transaction-sender.ts';
import type { Logger } from '../internal/logger.ts';
import { CHAIN_WATCH_INTERVAL_MS, LOST_TRANSACTIONS_CHECK_MS } from './constants.ts';

export interface ChainWatch {
  start(): void;
  stop(): Promise<void>;
}

export interface ChainWatchDeps {
  chainIds: readonly number[];
  head(chainId: number): Promise<bigint>;
  sender: Pick<TransactionSender, 'restoreLost'>;
  log: Logger;
  timing?: Partial<{ intervalMs: number; checkEveryMs: number }>;
}

interface ChainView {
  healthy: boolean;
  head?: bigint;
  checkedAt?: number;
  /** The restore this watch started, while it runs (not awaited by the rounds: it may take blocks). */
  restoring?: Promise<void>;
}

export function createChainWatch(deps: ChainWatchDeps): ChainWatch {
  const { log } = deps;
  const intervalMs = deps.timing?.intervalMs ?? CHAIN_WATCH_INTERVAL_MS;
  const checkEveryMs = deps.timing?.checkEveryMs ?? LOST_TRANSACTIONS_CHECK_MS;
  const views = new Map<number, ChainView>(deps.chainIds.map((id) => [id, { healthy: true }]));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  /** Why this chain's journal should be checked now, if it should. */
  async function look(chainId: number, view: ChainView): Promise<string | undefined> {
    let head: bigint;
    try {
      head = await deps.head(chainId);
    } catch (error) {
      if (view.healthy) log.warn('chain unreachable', { chainId, error });
      view.healthy = false;
      return undefined;
    }
    const seen = view.head;
    const wasHealthy = view.healthy;
    view.healthy = true;
    view.head = head;
    if (!wasHealthy) {
      log.info('chain reachable again', { chainId, head });
      return 'reachable again';
    }
    if (seen !== undefined && head < seen) {
      log.warn('chain head went back', { chainId, head, seen });
      return 'head went back';
    }
    if (view.checkedAt === undefined) return 'first look';
    return Date.now() - view.checkedAt >= checkEveryMs ? 'periodic check' : undefined;
  }

  function restore(chainId: number, view: ChainView, reason: string): void {
    view.checkedAt = Date.now();
    view.restoring = deps.sender
      .restoreLost(chainId)
      .then((restored) => {
        // Another worker is restoring the chain: look again next round, in case it dies before it is done.
        if (restored === undefined) view.checkedAt = undefined;
        else if (restored > 0) log.warn('lost transactions restored', { chainId, reason, restored });
      })
      .catch((error: unknown) => {
        // Looked at again next round (as a first look).
        view.checkedAt = undefined;
        log.warn('restoring lost transactions failed', { chainId, reason, error });
      })
      .finally(() => {
        view.restoring = undefined;
      });
  }

  async function round(): Promise<void> {
    await Promise.all(
      [...views].map(async ([chainId, view]) => {
        const reason = await look(chainId, view);
        if (reason && !view.restoring && !stopped) restore(chainId, view, reason);
      }),
    );
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        .catch((error: unknown) => log.warn('chain watch round failed', { error }))
        .finally(schedule);
    }, intervalMs);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.all([...views.values()].map((v) => v.restoring));
    },
  };
}
