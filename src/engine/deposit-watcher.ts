/**
 * Picks up deposits that arrive without ExecuteIntent: every DEPOSIT_SCAN_INTERVAL_MS it looks at
 * COMMITTED intents whose origin address holds at least the committed deposit, moves them to EXECUTING and
 * journals their `deposit` step (which counts the deposit only at the chain's confirmation depth).
 *
 * A committed intent past its origin deadline goes to the origin-refund step (which marks it FAILED when
 * nothing arrived), so only commits still able to run stay here. A round reads at most DEPOSIT_SCAN_BATCH
 * of them, oldest first, and the next round goes on after the last one it read, back to the oldest after
 * the newest: reading the oldest page every round would never reach the intents committed after them.
 *
 * Each round also watches the addresses of quotes never committed (quoted-deposit-watch.ts).
 *
 * Several workers: the rounds run on the one holding the `deposit-watch` task lease, renewed every round;
 * the others skip theirs. A holder that dies stops renewing and the next worker whose round comes after the
 * lease ran out takes over, starting its cursors afresh (the recording is idempotent); a stopping holder
 * releases it so another takes over at its next round.
 */
import type { TaskLeaseHolder } from '../store/task-lease-holder.ts';
import { balanceAt, chainNow } from './chain-reads.ts';
import { DEPOSIT_SCAN_BATCH, DEPOSIT_SCAN_INTERVAL_MS } from './constants.ts';
import type { EngineContext } from './context.ts';
import { loadPlan } from './load-plan.ts';
import { createQuotedDepositWatch } from './quoted-deposit-watch.ts';

/** The task lease whose holder runs the watcher's rounds. */
export const DEPOSIT_WATCH_TASK = 'deposit-watch';

export interface DepositWatcher {
  start(): void;
  stop(): Promise<void>;
  /** One scan, lease or not (tests). Returns how many intents it moved to EXECUTING. */
  scan(): Promise<number>;
}

export function createDepositWatcher(
  ctx: EngineContext,
  options: {
    intervalMs?: number;
    /** Intents read per round (tests). */
    batch?: number;
    /** The chains whose quotes' addresses are watched for deposits without a commit. */
    chainIds: readonly number[];
    startExecution: (intentId: string) => Promise<unknown>;
    /** This worker's task leases: of several workers, the holder of DEPOSIT_WATCH_TASK runs the rounds. */
    leases: TaskLeaseHolder;
  },
): DepositWatcher {
  const newQuotedWatch = () => createQuotedDepositWatch(ctx, { chainIds: options.chainIds });
  let quoted = newQuotedWatch();
  /** Whether this worker held the lease at its last round: one that takes it over starts afresh. */
  let holding = false;
  const intervalMs = options.intervalMs ?? DEPOSIT_SCAN_INTERVAL_MS;
  const batch = options.batch ?? DEPOSIT_SCAN_BATCH;
  /** The id of the last intent the previous round read; undefined: start from the oldest. */
  let cursor: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  async function scan(): Promise<number> {
    const committed = await ctx.store.intents.listByStatus(['COMMITTED'], batch, cursor);
    cursor = committed.length < batch ? undefined : committed.at(-1)!.id;
    let moved = 0;
    const clocks = new Map<bigint, Promise<bigint>>();
    for (const intent of committed) {
      try {
        if (!intent.planJson) continue;
        const plan = loadPlan(intent);
        const o = plan.origin.intent;
        const { client } = ctx.chain(o.chainId);
        const balance = await balanceAt(client, o.depositToken, plan.origin.address);
        if (balance < o.depositAmount) {
          await refundIfExpired(o.chainId, o.deadline, intent.intentId);
          continue;
        }
        ctx.log.info('deposit seen without ExecuteIntent', { intentId: intent.intentId, balance });
        await options.startExecution(intent.intentId);
        moved++;
      } catch (error) {
        ctx.log.warn('deposit check failed; next round retries', { intentId: intent.intentId, error });
      }
    }
    await quoted.round().catch((error: unknown) => ctx.log.warn('quoted-deposit watch failed', { error }));
    return moved;

    /**
     * Past its deadline a committed intent can no longer run. The origin-refund step takes it from here:
     * it returns anything the address holds (an underpaid or wrong-token deposit), or, with nothing there,
     * marks the intent FAILED ("no deposit arrived before the origin deadline"), then watches the address
     * for late deposits until LATE_DEPOSIT_WATCH_SECONDS after the deadline. Either way the intent leaves
     * COMMITTED, so commits that never get a deposit do not pile up in this scan.
     */
    async function refundIfExpired(chainId: bigint, deadline: bigint, intentId: string): Promise<void> {
      const chain = ctx.chain(chainId);
      if (!clocks.has(chainId)) clocks.set(chainId, chainNow(chain.client)); // one clock read per chain a round
      if ((await clocks.get(chainId)!) < deadline) return;
      ctx.log.info('committed intent past its deadline: to the origin refund', { intentId });
      await ctx.enqueue(intentId, 'origin-refund');
    }
  }

  /** A round on the lease holder; the cursors of a worker that was not holding it may be long stale. */
  async function leasedRound(): Promise<void> {
    const held = await options.leases.hold(DEPOSIT_WATCH_TASK);
    if (held && !holding) {
      cursor = undefined;
      quoted = newQuotedWatch();
    }
    holding = held;
    if (held) await scan();
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = leasedRound()
        .catch((error: unknown) => ctx.log.warn('deposit scan failed', { error }))
        .finally(schedule);
    }, intervalMs);
  }

  return {
    scan,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      if (!holding) return;
      holding = false;
      await options.leases
        .release(DEPOSIT_WATCH_TASK)
        .catch((error: unknown) =>
          ctx.log.warn('releasing the deposit watch failed; its lease runs out', { error }),
        );
    },
  };
}
