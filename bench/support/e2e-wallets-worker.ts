/**
 * The benchmark's wallets on a worker thread of their own: the users of the service run (CommitIntent,
 * deposit, ExecuteIntent, WaitIntentReceipt through the official client) and the whole bare run (deposit and
 * the direct sends), and the users' funding before them. The service under test keeps the main thread's
 * event loop to itself, as it would with its users on their own machines; their CPU is still this
 * process's (process.cpuUsage counts every thread) and the machine's. Started by e2e-wallets.ts (through
 * e2e-wallets-worker.js, which loads tsx first); one job per message.
 */
import { parentPort } from 'node:worker_threads';
import { type Intent, TrailsApi } from '@0xtrails/api';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { DevnetChainEntry } from '../../src/devnet/devnet-file.ts';
import type { ExecutionPlan } from '../../src/intents/plan/types.ts';
import { type BareOperator, runBareIntent } from './e2e-bare.ts';
import { benchChain, nonceCounter } from './e2e-chain.ts';
import { runServiceIntent } from './e2e-service.ts';
import type { IntentTiming, RawDeposit } from './e2e-timing.ts';
import { fundUsers } from './e2e-users.ts';
import { runPool } from './run-pool.ts';

interface Common {
  origin: DevnetChainEntry;
  destination: DevnetChainEntry;
  concurrency: number;
}

export type WalletJob =
  | (Common & { kind: 'service'; apiUrl: string; accessKey: string; intents: { key: Hex; intent: Intent }[] })
  | (Common & {
      kind: 'bare';
      relayerKey: Hex;
      solverKey: Hex;
      intents: { key: Hex; deposit: RawDeposit; plan: ExecutionPlan }[];
    });

/** Funds `count` fresh users on `origin` (untimed; it also warms this thread's code before the runs). */
export interface FundJob {
  kind: 'fund';
  origin: DevnetChainEntry;
  token: Address;
  amount: bigint;
  count: number;
}

export type WalletAnswer =
  | { ok: true; timings: IntentTiming[]; keys: Hex[]; timeOrigin: number }
  | { ok: false; error: string };

/** The keys of the users a FundJob funded. */
export async function runFundJob(job: FundJob): Promise<Hex[]> {
  const users = await fundUsers(benchChain(job.origin), job.token, job.amount, job.count);
  return users.map((u) => u.key);
}

/** One job's intents, `concurrency` at a time; also called on the main thread with `--wallets main`. */
export async function runWalletJob(job: WalletJob): Promise<IntentTiming[]> {
  const origin = benchChain(job.origin);
  const destination = benchChain(job.destination);
  if (job.kind === 'service') {
    const api = new TrailsApi(job.accessKey, { hostname: job.apiUrl });
    return runPool(job.intents, job.concurrency, ({ key, intent }) =>
      runServiceIntent(api, origin, { user: privateKeyToAccount(key), intent }),
    );
  }
  const relayer = privateKeyToAccount(job.relayerKey);
  const solver = privateKeyToAccount(job.solverKey);
  const nonces: BareOperator['nonces'] = new Map();
  for (const chain of [origin, destination]) {
    nonces.set(chain.entry.chainId, {
      relayer: await nonceCounter(chain, relayer.address),
      solver: await nonceCounter(chain, solver.address),
    });
  }
  return runPool(job.intents, job.concurrency, ({ key, deposit, plan }) =>
    runBareIntent(
      { origin, destination },
      { relayer, solver, nonces },
      { user: privateKeyToAccount(key), deposit, plan },
    ),
  );
}

async function answer(job: WalletJob | FundJob): Promise<WalletAnswer> {
  try {
    const done =
      job.kind === 'fund'
        ? { timings: [], keys: await runFundJob(job) }
        : { timings: await runWalletJob(job), keys: [] };
    return { ok: true, ...done, timeOrigin: performance.timeOrigin };
  } catch (error) {
    return { ok: false, error: String((error as Error)?.stack ?? error) };
  }
}

// Only on the worker thread: parentPort is null on the main thread, which imports the run functions.
parentPort?.on('message', (job: WalletJob | FundJob) => {
  void answer(job).then((a) => parentPort?.postMessage(a));
});
