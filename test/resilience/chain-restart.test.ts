/**
 * A real chain outage: the destination chain's anvil process is stopped mid-flight and started again on
 * the same port from its state file (test/harness/devnet.ts `stopChain` / `restartChain`).
 *
 * Beta mines nothing while the intent's first destination transaction is sent (automine off), so that
 * transaction is broadcast into beta's mempool, not mined, when the process stops: anvil keeps blocks and
 * receipts in its state file but not its mempool, so the transaction is lost with the process. The first
 * intent loses the solver's approve (the first fill of USDC on beta; a transaction no intent owns), the
 * second loses its fill. While beta
 * is down the intent stays EXECUTING, its step fails with a retryable chain error and retries, and
 * RuntimeStatus (the official client) reports beta unhealthy. After the restart the engine re-broadcasts
 * the stored signed transaction (the same hash, never re-signed), the intent succeeds, the recipient is
 * paid on beta, and the audit finds every operator transaction sent once.
 */
import { type Address, erc20Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress, quoteRequest, usdc } from '../e2e/support/requests.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import { type AuditedIntent, auditSends } from './support/audit.ts';
import { executeIntent, waitForStepDone, waitForTerminal } from './support/intents.ts';
import { type ResilienceService, startResilienceService } from './support/resilience-service.ts';

/** The outage, the step's backoff after it (0.5 s doubling) and the rest of the intent, loaded machine (ms). */
const FINISH_TIMEOUT_MS = 120_000;
/** Give up waiting for a state of the run after this long (ms): each takes seconds at most. */
const WAIT_LIMIT_MS = 60_000;
/** How often the store and the chains are read while waiting (ms). */
const POLL_MS = 100;
/**
 * Attempts (leases) of the failing step seen while beta is down: the first failed when beta stopped, the
 * second failed against the dead chain too, the third is leased: it keeps retrying, it does not fail.
 */
const ATTEMPTS_WHILE_DOWN = 3;

let net: TestDevnet;
let svc: ResilienceService;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
const startBlocks = new Map<number, bigint>();
const audited: AuditedIntent[] = [];

beforeAll(async () => {
  net = await startTestDevnet();
  [alpha, beta] = net.chains as [TestDevnetChain, TestDevnetChain];
  svc = await startResilienceService({}, net);
  await svc.start();
  for (const c of net.chains) startBlocks.set(c.entry.chainId, await c.publicClient.getBlockNumber());
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await net?.stop();
});

/** Polls `read` until it returns a value; fails with `what` after WAIT_LIMIT_MS. */
async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function chainHealth(): Promise<Record<string, boolean>> {
  const { status } = await svc.api().runtimeStatus();
  return Object.fromEntries(
    status.services.filter((s) => s.name.startsWith('chain:')).map((s) => [s.name, s.healthy]),
  );
}

/**
 * One intent alpha → beta with beta's anvil stopped while the intent's first beta transaction (of
 * `purpose`) waits in its mempool, and restarted once the destination step has retried against it.
 */
async function intentAcrossRestart(purpose: string): Promise<void> {
  const betaId = beta.entry.chainId;
  const recipient = freshAddress();
  const { intent } = await svc.api().quoteIntent(
    quoteRequest({
      owner: net.devnet.accounts.user.address,
      from: alpha,
      fromToken: 'USDC',
      to: beta,
      toToken: 'USDC',
      recipient,
      amountIn: usdc('30'),
    }),
  );
  await svc.api().commitIntent({ intent });

  // From here beta keeps what it is sent in its mempool: the first destination send waits there.
  await beta.testClient.setAutomine(false);
  const raw = intent.depositTransaction as unknown as { to: Address; data: Hex };
  const depositHash = await alpha.walletFor('user').sendTransaction({ to: raw.to, data: raw.data });
  await alpha.publicClient.waitForTransactionReceipt({ hash: depositHash });
  await executeIntent(svc, intent.intentId, depositHash);

  // The origin side runs on alpha; then a transaction is broadcast on beta and sits in its mempool.
  const pending = await waitFor('a broadcast transaction in beta mempool', async () => {
    const rows = await svc.store.signedTransactions.listUnconfirmed({ chainId: betaId });
    const row = rows.find((r) => r.status === 'broadcast');
    if (!row) return undefined;
    const inPool = await beta.publicClient
      .getTransaction({ hash: row.hash as Hex })
      .then((tx) => tx.blockNumber === null)
      .catch(() => false);
    return inPool ? row : undefined;
  });
  expect(pending.purpose).toBe(purpose);

  await net.stopChain(betaId);
  try {
    // The waiting step fails with a retryable chain error and is retried; the intent is not failed.
    const failing = await waitFor('a destination step retried while beta is down', async () => {
      const steps = await svc.store.steps.list(intent.intentId);
      return steps.find(
        (s) => s.attempts >= ATTEMPTS_WHILE_DOWN && s.lastError && !s.lastError.startsWith('waiting'),
      );
    });
    expect(failing.step).toBe('fill');
    expect(failing.lastError).toMatch(/ChainUnavailable|ECONNREFUSED/);
    expect((await svc.store.intents.getForEngine(intent.intentId))?.status).toBe('EXECUTING');
    expect(await chainHealth()).toEqual({
      [`chain:${alpha.entry.chainId}`]: true,
      [`chain:${betaId}`]: false,
      [`chain:${net.chains[2]!.entry.chainId}`]: true,
    });
  } finally {
    await net.restartChain(betaId);
  }

  const done = await waitForTerminal(svc, intent.intentId, FINISH_TIMEOUT_MS);
  expect(done.status).toBe('SUCCEEDED');
  await waitForStepDone(svc, intent.intentId, 'settle', FINISH_TIMEOUT_MS);
  expect(Object.values(await chainHealth()).every(Boolean)).toBe(true);

  // The transaction lost with the mempool was re-broadcast as stored: same hash, mined, not replaced.
  expect((await svc.store.signedTransactions.findByHash(pending.hash))?.status).toBe('mined');
  const receipt = await beta.publicClient.getTransactionReceipt({ hash: pending.hash as Hex });
  expect(receipt.status).toBe('success');
  const received = await beta.publicClient.readContract({
    address: beta.entry.tokens.USDC as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [recipient],
  });
  expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
  audited.push({
    intentId: intent.intentId,
    originChainId: alpha.entry.chainId,
    destinationChainId: betaId,
    originAddress: intent.originIntentAddress as Address,
    destinationAddress: intent.destinationIntentAddress as Address,
  });
  await auditSends(svc, audited, startBlocks);
}

describe("beta's anvil stops with an intent's transaction in its mempool and restarts from its state", () => {
  it(
    'the solver approve is lost with the mempool: re-broadcast as stored, the intent succeeds',
    async () => {
      await intentAcrossRestart(`solver-approve:${beta.entry.tokens.USDC!.toLowerCase()}`);
    },
    FINISH_TIMEOUT_MS * 2,
  );

  it(
    'the fill is lost with the mempool: re-broadcast as stored, the intent succeeds',
    async () => {
      await intentAcrossRestart('solver-fill');
    },
    FINISH_TIMEOUT_MS * 2,
  );
});
