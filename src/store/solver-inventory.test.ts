import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomAddress, randomHash, statementsDuring } from './testing.ts';
import type { IntentStatus, Project, SolverAmounts, Store, TokenAmount } from './types.ts';

const FILL = 'solver-fill';
const SETTLE = 'settle';
/** Two 18-decimal amounts whose sum is above 2^63 (SQLite's integer range): summed exactly. */
const BIG = 6n * 10n ** 18n;

describeEachDialect('solver inventory', ({ openStore }) => {
  let store: Store;
  let project: Project;
  const usdc = randomAddress();
  const weth = randomAddress();
  const originUsdc = randomAddress();

  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('solver');
  });

  async function intent(status: IntentStatus, solver?: Partial<SolverAmounts>, destinationChainId = 31_338) {
    const stored = await store.intents.insert(
      newIntent(project.id, {
        destinationChainId,
        solver: solver && {
          fillTokenAddress: usdc,
          fillAmount: 100n,
          repaymentTokenAddress: originUsdc,
          repaymentAmount: 101n,
          ...solver,
        },
      }),
    );
    if (status !== 'QUOTED') {
      await store.intents.updateStatus({ intentId: stored.intentId, to: 'COMMITTED' });
      if (status !== 'COMMITTED') await store.intents.updateStatus({ intentId: stored.intentId, to: status });
    }
    return stored.intentId;
  }

  async function fill(intentId: string, status: 'broadcast' | 'mined' | 'failed') {
    const tx = await store.signedTransactions.record({
      chainId: 31_338,
      fromAddress: randomAddress(),
      nonce: 0,
      raw: '0x01',
      hash: randomHash(),
      purpose: FILL,
      intentId,
    });
    if (status === 'broadcast') await store.signedTransactions.markBroadcast({ hash: tx.hash });
    else await store.signedTransactions.markMined({ hash: tx.hash, status });
  }

  const byToken = (amounts: TokenAmount[]) =>
    Object.fromEntries(amounts.map((a) => [`${a.chainId}:${a.tokenAddress}`, a.amount]));

  it('holds the fill amounts of committed and executing intents until their fill lands', async () => {
    await intent('QUOTED', { fillAmount: 1n }); // not committed: holds nothing
    await intent('COMMITTED', { fillAmount: 100n });
    const executing = await intent('EXECUTING', { fillAmount: 200n });
    const sent = await intent('EXECUTING', { fillAmount: 400n });
    await fill(sent, 'broadcast'); // in the pool: the balance does not show it yet
    const landed = await intent('EXECUTING', { fillAmount: 800n });
    await fill(landed, 'mined');
    const reverted = await intent('EXECUTING', { fillAmount: 1_600n });
    await fill(reverted, 'failed');
    await intent('SUCCEEDED', { fillAmount: 3_200n });
    await intent('FAILED', { fillAmount: 6_400n });
    await intent('EXECUTING'); // same chain: no order
    await intent('EXECUTING', { fillTokenAddress: weth, fillAmount: BIG });
    await intent('COMMITTED', { fillTokenAddress: weth, fillAmount: BIG });
    await intent('COMMITTED', { fillAmount: 12_800n }, 31_339);

    expect(byToken(await store.solverInventory.held({ fillPurpose: FILL }))).toEqual({
      [`31338:${usdc}`]: 700n,
      [`31338:${weth}`]: 2n * BIG,
      [`31339:${usdc}`]: 12_800n,
    });
    expect(
      await store.solverInventory.held({ fillPurpose: FILL, chainId: 31_338, tokenAddress: usdc }),
    ).toEqual([{ chainId: 31_338, tokenAddress: usdc, amount: 700n }]);
    // Addresses are compared lower-case, whatever case the caller gives.
    expect(
      await store.solverInventory.held({
        fillPurpose: FILL,
        chainId: 31_339,
        tokenAddress: usdc.toUpperCase().replace('0X', '0x'),
      }),
    ).toEqual([{ chainId: 31_339, tokenAddress: usdc, amount: 12_800n }]);
    expect(await store.solverInventory.held({ fillPurpose: FILL, chainId: 1 })).toEqual([]);

    // The intent moves on and its fill lands: it no longer holds anything.
    await fill(executing, 'mined');
    expect(
      await store.solverInventory.held({ fillPurpose: FILL, chainId: 31_338, tokenAddress: usdc }),
    ).toEqual([{ chainId: 31_338, tokenAddress: usdc, amount: 500n }]);
  });

  it('moves a commit only when its fill fits, the held sum read in the move: one statement on Postgres', async () => {
    const chainId = 31_400;
    const token = { fillTokenAddress: weth };
    await intent('COMMITTED', { ...token, fillAmount: BIG }, chainId);
    await intent('EXECUTING', { ...token, fillAmount: BIG + 1n }, chainId);
    await fill(await intent('EXECUTING', { ...token, fillAmount: BIG }, chainId), 'mined'); // landed
    await intent('COMMITTED', { fillAmount: BIG }, chainId); // another token
    const quoted = await intent('QUOTED', { ...token, fillAmount: BIG }, chainId);
    // Above 2^63, and odd: not a double, summed exactly.
    const held = 2n * BIG + 1n;
    expect(await store.solverInventory.held({ fillPurpose: FILL, chainId, tokenAddress: weth })).toEqual([
      { chainId, tokenAddress: weth, amount: held },
    ]);
    const committedAt = new Date('2041-01-01T00:00:00Z');
    const commit = (balance: bigint) =>
      store.intents.updateStatus({
        intentId: quoted,
        to: 'COMMITTED',
        committedAt,
        inventory: {
          fillPurpose: FILL,
          chainId,
          tokenAddress: weth.toUpperCase().replace('0X', '0x'),
          balance,
          amount: BIG,
        },
      });
    if (!store.capabilities.supportsDataModifyingWith) {
      // SQLite reads the held amounts apart (create-solver-inventory.ts): no check in the move.
      await expect(commit(held + BIG)).rejects.toThrow('this store checks no inventory in a status move');
      return;
    }
    // One unit short: refused, nothing moved, the numbers the refusal reports.
    const { result: refused, statements } = await statementsDuring(() => commit(held + BIG - 1n));
    expect(statements).toHaveLength(1);
    expect(refused).toEqual({ updated: false, status: 'QUOTED', held });
    expect((await store.intents.getForEngine(quoted))?.committedAt).toBeNull();
    // A balance below what is held: nothing available, refused as well.
    expect(await commit(held - 1n)).toEqual({ updated: false, status: 'QUOTED', held });
    // Exactly enough: committed, its fill held from now on.
    expect(await commit(held + BIG)).toEqual({ updated: true, status: 'COMMITTED', held });
    expect(await store.intents.getForEngine(quoted)).toMatchObject({ status: 'COMMITTED', committedAt });
    // Again: it holds its own fill now, and a committed intent does not move (the idempotent commit).
    expect(await commit(held + 2n * BIG)).toEqual({ updated: false, status: 'COMMITTED', held: held + BIG });
  });

  it('owes the solver the repayment of intents whose settle step is journaled and not done', async () => {
    const pending = await intent('SUCCEEDED', { repaymentAmount: 10n });
    const running = await intent('REFUNDED', { repaymentAmount: 20n });
    const settled = await intent('SUCCEEDED', { repaymentAmount: 40n });
    const gaveUp = await intent('SUCCEEDED', { repaymentAmount: 80n });
    await intent('EXECUTING', { repaymentAmount: 160n }); // not filled yet: no settle step
    const big = await intent('SUCCEEDED', { repaymentTokenAddress: weth, repaymentAmount: BIG });
    const bigger = await intent('SUCCEEDED', { repaymentTokenAddress: weth, repaymentAmount: BIG });
    const runAt = new Date('2040-01-01T00:00:00Z');
    for (const id of [pending, running, settled, gaveUp, big, bigger]) {
      await store.steps.enqueue({ intentId: id, step: SETTLE, runAt });
    }
    await store.steps.enqueue({ intentId: pending, step: 'destination', runAt });
    const leased = await store.steps.leaseDue({ owner: 'w', limit: 100, leaseMs: 60_000, now: runAt });
    const stepOf = (id: string) => leased.find((s) => s.intentId === id && s.step === SETTLE)!;
    await store.steps.complete({ id: stepOf(settled).id, owner: 'w' });
    await store.steps.fail({ id: stepOf(gaveUp).id, owner: 'w', error: 'reverted' });
    await store.steps.fail({ id: stepOf(pending).id, owner: 'w', error: 'rpc', retryAt: runAt });

    expect(byToken(await store.solverInventory.owed({ settleStep: SETTLE }))).toEqual({
      [`31337:${originUsdc}`]: 30n,
      [`31337:${weth}`]: 2n * BIG,
    });
  });
});
