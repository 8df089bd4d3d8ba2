/**
 * The engine on PostgreSQL (SKIP LOCKED leasing, nonces and signed transactions in Postgres): a cross-chain
 * intent end to end, one refunded on the destination, and a same-chain one.
 */
import { type Address, encodeFunctionData, erc20Abi } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accruingVaultAbi } from '../../src/contracts/abis.generated.ts';
import { AMOUNT_PLACEHOLDER } from '../../src/intents/plan/constants.ts';
import type { IntentEventRecord, Store } from '../../src/store/types.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import {
  type EngineFixture,
  freshAddress,
  startEngineFixture,
  usdcRequest,
} from './support/engine-fixture.ts';

let f: EngineFixture;
beforeAll(async () => {
  f = await startEngineFixture('postgres');
}, 180_000);
afterAll(async () => {
  await f?.stop();
});

it('moves USDC from beta to gamma on Postgres and settles', async () => {
  const [, beta, gamma] = f.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  const recipient = freshAddress();
  const before = await f.store.eventLog.latest(f.projectId);
  const { intentId, plan } = await f.commit(usdcRequest(f.net, beta, gamma, '25', recipient));
  const engine = await f.startEngine();
  await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
  const received = await gamma.publicClient.readContract({
    address: gamma.entry.tokens.USDC! as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [recipient],
  });
  expect(received).toBeGreaterThanOrEqual(plan.amounts.toAmountMin);
  await f.waitForStep(intentId, 'settle');
  const rows = await f.store.transactions.list(intentId);
  expect(
    rows
      .filter((r) => r.status === 'SUCCEEDED')
      .map((r) => r.kind)
      .sort(),
  ).toEqual(['deposit', 'destination', 'origin']);
  // The sends' journal marks (the origin's and destination's ride in their receipt rows' writes): every
  // transaction of the intent is recorded broadcast, then mined where it was mined; none is left to re-send.
  const journaled = await f.store.signedTransactions.listForIntent(intentId);
  const mined = journaled.filter((t) => t.status === 'mined').map((t) => t.purpose);
  expect(mined).toEqual(expect.arrayContaining(['origin-execute', 'solver-fill']));
  expect(mined.some((p) => p.startsWith('destination-execute'))).toBe(true);
  for (const tx of journaled) {
    // An early destination execution that landed before the fill reverted: `failed`, mined all the same.
    expect(['mined', 'failed']).toContain(tx.status);
    expect(tx.broadcastAt).toBeInstanceOf(Date);
    expect(tx.minedBlock).toBeGreaterThan(0);
  }
  // Mined at the depth asked for (1), the executions go from RELAYED to SUCCEEDED: their mined marks rode
  // with the final rows (checked above), and no MINING row was written in between.
  const events = await f.store.eventLog.listAfter({ projectId: f.projectId, after: before, limit: 1000 });
  const changes = events.filter((e) => e.intentId === intentId).map(changed);
  // An early destination execution (sent behind a fill still in the pool) writes its every stage.
  const early = journaled.some((t) => t.purpose === 'destination-execute-early');
  for (const kind of early ? ['origin'] : ['origin', 'destination']) {
    const own = changes.filter((c) => c.startsWith(`${kind} `));
    expect(own.slice(-2)).toEqual([`${kind} RELAYED`, `${kind} SUCCEEDED`]);
    expect(own).not.toContain(`${kind} MINING`);
  }
  await engine.stop();
}, 60_000);

it('the fill’s mined mark and the destination’s end commit with their steps’ completions, not on their own', async () => {
  const [, beta, gamma] = f.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  const { intentId, plan } = await f.commit(usdcRequest(f.net, beta, gamma, '20'));
  // The store as the engine uses it, noting the journal's own mined marks, the status moves made on their
  // own, and the ends that ride with a completion.
  const markedAlone: string[] = [];
  const movedAlone: string[] = [];
  const endedWith: string[] = [];
  const store: Store = {
    ...f.store,
    signedTransactions: {
      ...f.store.signedTransactions,
      markMined(mark) {
        markedAlone.push(mark.hash.toLowerCase());
        return f.store.signedTransactions.markMined(mark);
      },
    },
    intents: {
      ...f.store.intents,
      updateStatus(update) {
        movedAlone.push(update.to);
        return f.store.intents.updateStatus(update);
      },
    },
    steps: {
      ...f.store.steps,
      complete(input) {
        if (input.end) endedWith.push(input.end.to);
        return f.store.steps.complete(input);
      },
    },
  };
  const engine = await f.startEngine({ store });
  await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
  await f.waitForStep(intentId, 'settle');
  expect((await f.store.steps.list(intentId)).find((s) => s.step === 'destination')?.state).toBe('done');
  expect(endedWith).toEqual(['SUCCEEDED']);
  expect(movedAlone).not.toContain('SUCCEEDED');
  // The fill is mined in the journal (settlement read it so), by its completion: no mark of its own.
  const fill = (await f.store.signedTransactions.listForIntent(intentId)).find(
    (t) => t.purpose === 'solver-fill',
  );
  expect(fill).toMatchObject({ status: 'mined' });
  expect(fill?.minedBlock).toBeGreaterThan(0);
  expect(markedAlone).not.toContain(fill?.hash.toLowerCase());
  await engine.stop();
}, 60_000);

it('the fill’s broadcast mark commits with the destination step’s enqueue, not on its own', async () => {
  const [, beta, gamma] = f.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  const gammaId = gamma.entry.chainId;
  expect(f.net.chainConfigs.find((c) => c.chainId === gammaId)?.destinationBehindFill).toBe(true);
  const { intentId, plan } = await f.commit(usdcRequest(f.net, beta, gamma, '15'));
  // The journal's broadcast marks written on their own, and the marks that rode with an enqueue.
  const markedAlone: string[] = [];
  const enqueuedWith: { steps: string[]; mark: string | undefined }[] = [];
  const store: Store = {
    ...f.store,
    signedTransactions: {
      ...f.store.signedTransactions,
      markBroadcast(mark) {
        markedAlone.push(mark.hash.toLowerCase());
        return f.store.signedTransactions.markBroadcast(mark);
      },
    },
    steps: {
      ...f.store.steps,
      async enqueueAll(input) {
        const leased = await f.store.steps.enqueueAll(input);
        if (input.intentId === intentId) {
          // Written with the steps: the row is broadcast when they are journaled.
          const fill = input.journalMark
            ? await f.store.signedTransactions.findByHash(input.journalMark.hash)
            : undefined;
          expect(fill?.status ?? 'none').not.toBe('signed');
          enqueuedWith.push({ steps: input.steps.map((s) => s.step), mark: input.journalMark?.hash });
        }
        return leased;
      },
    },
  };
  const engine = await f.startEngine({ store });
  await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
  await f.waitForStep(intentId, 'settle');
  const fill = (await f.store.signedTransactions.listForIntent(intentId)).find(
    (t) => t.purpose === 'solver-fill',
  );
  expect(fill).toMatchObject({ status: 'mined' });
  expect(enqueuedWith).toContainEqual({ steps: ['destination'], mark: fill?.hash });
  expect(markedAlone).not.toContain(fill?.hash.toLowerCase());
  // The destination step journaled no earlier than the fill's broadcast mark (one statement: the same time).
  const destination = (await f.store.steps.list(intentId)).find((s) => s.step === 'destination');
  expect(fill?.broadcastAt).toBeInstanceOf(Date);
  expect(destination?.createdAt.getTime()).toBeGreaterThanOrEqual(fill!.broadcastAt!.getTime());
  expect(destination?.state).toBe('done');
  await engine.stop();
}, 60_000);

it('a destination call that reverts: the rows and REFUNDED in one statement, their events in receipt order', async () => {
  const [, beta, gamma] = f.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  const vault = gamma.entry.contracts.usdcVault! as Address;
  // deposit() without an approval: the vault's transferFrom fails, so the destination calls revert.
  const destinationCallData = encodeFunctionData({
    abi: accruingVaultAbi,
    functionName: 'deposit',
    args: [BigInt(AMOUNT_PLACEHOLDER), freshAddress()],
  });
  const before = await f.store.eventLog.latest(f.projectId);
  const { intentId, plan } = await f.commit({
    ...usdcRequest(f.net, beta, gamma, '30', vault),
    destinationCallData,
  });
  const engine = await f.startEngine();
  await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('REFUNDED');
  const rows = await f.store.transactions.list(intentId);
  expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual([
    ['deposit', 'SUCCEEDED'],
    ['destination', 'FAILED'],
    ['origin', 'SUCCEEDED'],
    ['refund', 'SUCCEEDED'],
  ]);
  const events = await f.store.eventLog.listAfter({ projectId: f.projectId, after: before, limit: 1000 });
  const changes = events.filter((e) => e.intentId === intentId).map(changed);
  // The end: the rows, then the status (the start's order depends on whether the deposit watcher or
  // ExecuteIntent moved it first; src/store/event-log.test.ts covers it).
  expect(changes.slice(-3)).toEqual(['destination FAILED', 'refund SUCCEEDED', 'intent REFUNDED']);
  await engine.stop();
}, 60_000);

it('a same-chain transfer: the origin and destination rows and SUCCEEDED in one statement, in receipt order', async () => {
  const [, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
  const before = await f.store.eventLog.latest(f.projectId);
  const { intentId, plan } = await f.commit(usdcRequest(f.net, beta, beta, '15'));
  const engine = await f.startEngine();
  await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
  expect((await f.waitForStatus(intentId, ['SUCCEEDED', 'FAILED', 'REFUNDED'])).status).toBe('SUCCEEDED');
  const rows = await f.store.transactions.list(intentId);
  const origin = rows.find((r) => r.kind === 'origin');
  expect(origin?.status).toBe('SUCCEEDED');
  expect(rows.find((r) => r.kind === 'destination')).toMatchObject({
    status: 'SUCCEEDED',
    txnHash: origin?.txnHash,
  });
  const events = await f.store.eventLog.listAfter({ projectId: f.projectId, after: before, limit: 1000 });
  expect(
    events
      .filter((e) => e.intentId === intentId)
      .map(changed)
      .slice(-3),
  ).toEqual(['origin SUCCEEDED', 'destination SUCCEEDED', 'intent SUCCEEDED']);
  await engine.stop();
}, 60_000);

/** What an event changed: `intent <status>` or `<row> <its status>` (as bench/e2e.ts --stages names it). */
function changed(e: IntentEventRecord): string {
  const kind = e.transactionKind;
  return kind ? `${kind} ${e.receiptStates[kind]}` : `intent ${e.status}`;
}
