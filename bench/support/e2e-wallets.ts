/**
 * The main thread's handle on the wallets' worker (e2e-wallets-worker.ts): sends a job, waits for its
 * answer and puts its timings on this thread's clock (each thread's performance.now() counts from its own
 * start), so the 1-second-blocks run can compare them with the block clock's readings.
 */
import { Worker } from 'node:worker_threads';
import type { Hex } from 'viem';
import type { IntentTiming } from './e2e-timing.ts';
import {
  type FundJob,
  runFundJob,
  runWalletJob,
  type WalletAnswer,
  type WalletJob,
} from './e2e-wallets-worker.ts';

export interface Wallets {
  /** Funds fresh users on the wallets' thread; their keys. */
  fund(job: Omit<FundJob, 'kind'>): Promise<Hex[]>;
  run(job: WalletJob): Promise<IntentTiming[]>;
  stop(): Promise<void>;
}

/** `thread: 'main'` runs the wallets on the caller's event loop beside the service (before session 5). */
export function startWallets(thread: 'worker' | 'main'): Wallets {
  if (thread === 'main')
    return { fund: (job) => runFundJob({ kind: 'fund', ...job }), run: runWalletJob, stop: async () => {} };
  const worker = new Worker(new URL('./e2e-wallets-worker.js', import.meta.url));
  const ask = (job: WalletJob | FundJob) =>
    new Promise<Extract<WalletAnswer, { ok: true }>>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once('error', onError);
      worker.once('message', (answer: WalletAnswer) => {
        worker.off('error', onError);
        if (answer.ok) resolve(answer);
        else reject(new Error(`wallets worker: ${answer.error}`));
      });
      worker.postMessage(job);
    });
  return {
    async fund(job) {
      return (await ask({ kind: 'fund', ...job })).keys;
    },
    async run(job) {
      const answer = await ask(job);
      const shift = answer.timeOrigin - performance.timeOrigin;
      return answer.timings.map((t) => ({
        ...t,
        depositSentAt: t.depositSentAt + shift,
        depositMinedAt: t.depositMinedAt + shift,
        doneAt: t.doneAt + shift,
      }));
    },
    async stop() {
      await worker.terminate();
    },
  };
}
