/**
 * The opening every resilience test file shares: one devnet for the whole file (test/harness/devnet.ts),
 * `switchyard serve` on it as a child process (resilience-service.ts), the block each chain was at before
 * the first intent (for the audit and conservation), the intents to audit, and one deposit queue. Call
 * `useResilienceSuite()` at the top level of a test file: it registers the beforeAll/afterAll that start
 * and stop everything, and returns the object whose fields are set once beforeAll has run.
 */
import type { QuoteIntentRequest } from '@0xtrails/api';
import type { Address } from 'viem';
import { afterAll, beforeAll } from 'vitest';
import { quoteRequest } from '../../e2e/support/requests.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../harness/devnet.ts';
import type { AuditedIntent } from './audit.ts';
import { createDepositQueue } from './intents.ts';
import {
  type ResilienceOptions,
  type ResilienceService,
  startResilienceService,
} from './resilience-service.ts';

/** Devnet start (1–3 s), contracts, the service's first start, on a loaded 2-core machine (ms). */
export const SETUP_TIMEOUT_MS = 120_000;
/** One intent through an outage or a crash: the fault, the step's backoff (0.5 s doubling), the rest (ms). */
export const INTENT_TIMEOUT_MS = 120_000;
/** Give up waiting for one state of a run after this long (ms): each takes seconds at most. */
export const WAIT_LIMIT_MS = 60_000;
/** How often the store and the chains are read while waiting (ms). */
export const POLL_MS = 100;

export interface ResilienceSuite {
  net: TestDevnet;
  svc: ResilienceService;
  alpha: TestDevnetChain;
  beta: TestDevnetChain;
  gamma: TestDevnetChain;
  /** Each chain's block number before the first intent. */
  startBlocks: Map<number, bigint>;
  /** The intents the audit checks (support/audit.ts), pushed by the tests. */
  audited: AuditedIntent[];
  /** Every intent account and recipient the run created (for conservation). */
  created: Address[];
  queue: ReturnType<typeof createDepositQueue>;
}

export interface SuiteOptions {
  /** The service's options, made once the devnet runs (e.g. a proxy in front of one chain). */
  service?: (net: TestDevnet) => Promise<ResilienceOptions> | ResilienceOptions;
  /** Start `serve` in beforeAll (default true); crash tests start it themselves with their hook. */
  start?: boolean;
  /** Runs after the service stopped, before the devnet stops (close what `service` opened). */
  cleanup?: () => Promise<void>;
}

export function useResilienceSuite(options: SuiteOptions = {}): ResilienceSuite {
  const suite = {
    startBlocks: new Map<number, bigint>(),
    audited: [] as AuditedIntent[],
    created: [] as Address[],
    queue: createDepositQueue(),
  } as ResilienceSuite;
  beforeAll(async () => {
    // The conservation audit reads balances at the suite's first block, which a long suite (random-kill)
    // would push out of the devnet's kept states.
    suite.net = await startTestDevnet({ keptStates: 'all' });
    [suite.alpha, suite.beta, suite.gamma] = suite.net.chains as [
      TestDevnetChain,
      TestDevnetChain,
      TestDevnetChain,
    ];
    suite.svc = await startResilienceService((await options.service?.(suite.net)) ?? {}, suite.net);
    if (options.start ?? true) await suite.svc.start();
    for (const c of suite.net.chains) {
      suite.startBlocks.set(c.entry.chainId, await c.publicClient.getBlockNumber());
    }
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await suite.svc?.stop();
    await options.cleanup?.();
    await suite.net?.stop();
  });
  return suite;
}

/** The resilience runs' usual intent: USDC on alpha to USDC on beta, from the devnet user. */
export function alphaToBetaUsdc(
  suite: ResilienceSuite,
  recipient: Address,
  amountIn: bigint,
): QuoteIntentRequest {
  return quoteRequest({
    owner: suite.net.devnet.accounts.user.address,
    from: suite.alpha,
    fromToken: 'USDC',
    to: suite.beta,
    toToken: 'USDC',
    recipient,
    amountIn,
  });
}
