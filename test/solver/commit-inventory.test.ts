/**
 * CommitIntent against the solver's inventory on each store (the chain's balance a stub): a commit whose
 * fill no longer fits is InsufficientInventoryError with the inventory's numbers, exact above 2^63, and the
 * intent stays QUOTED; one that fits moves to COMMITTED. On Postgres the open fills' sum is read in the
 * move's own statement (one statement where the held read and the move were two); SQLite reads it apart.
 */
import { type Address, encodeAbiParameters, type PublicClient } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import { InsufficientInventoryError } from '../../src/intents/plan/errors.ts';
import { createCommitIntent } from '../../src/intents/services/commit-intent.ts';
import type { IntentServicesDeps } from '../../src/intents/services/types.ts';
import { createSolverInventory } from '../../src/solver/create-solver-inventory.ts';
import { newIntent, randomAddress, randomHash, statementsDuring } from '../../src/store/testing.ts';
import type { Project, Store } from '../../src/store/types.ts';
import { describeEachDialect } from '../harness/database.ts';

const CHAIN = 31_500;
/** An 18-decimal amount: two of them pass 2^63. */
const BIG = 6n * 10n ** 18n;

describeEachDialect('CommitIntent against the solver inventory', ({ openStore }) => {
  let store: Store;
  let project: Project;
  const token = randomAddress() as Address;
  /** What the stubbed chain answers for the solver's balance. */
  let balance = 0n;
  const client = {
    request: async () => encodeAbiParameters([{ type: 'uint256' }], [balance]),
  } as unknown as PublicClient;
  let commit: ReturnType<typeof createCommitIntent>;

  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('commit-inventory');
    const inventory = createSolverInventory({
      store,
      chains: [],
      getClient: () => client,
      solver: randomAddress() as Address,
    });
    commit = createCommitIntent({ store, inventory } as unknown as IntentServicesDeps, () => new Date());
  });

  /** A quoted cross-chain intent filling `amount` of the token on CHAIN. */
  async function quoted(amount: bigint) {
    const intentId = randomHash();
    const order = { destChainId: String(CHAIN), outputToken: token, outputAmount: amount.toString() };
    await store.intents.insert(
      newIntent(project.id, {
        intentId,
        destinationChainId: CHAIN,
        planJson: JSON.stringify({ order }),
        solver: {
          fillTokenAddress: token,
          fillAmount: amount,
          repaymentTokenAddress: randomAddress(),
          repaymentAmount: amount,
        },
      }),
    );
    return intentId;
  }

  it('refuses a commit that no longer fits with the exact numbers, and commits one that fits', async () => {
    const open = [await quoted(BIG), await quoted(BIG + 1n)];
    balance = 10n * BIG;
    for (const intentId of open) await commit({ intentId }, project.id);
    const held = 2n * BIG + 1n;
    const late = await quoted(BIG);

    balance = held + BIG - 1n;
    const { result: refused, statements } = await statementsDuring(() =>
      commit({ intentId: late }, project.id).catch((error: unknown) => error),
    );
    expect(refused).toBeInstanceOf(InsufficientInventoryError);
    const error = refused as InsufficientInventoryError;
    expect(error.details).toEqual({
      chainId: CHAIN,
      token,
      balance: balance.toString(),
      held: held.toString(),
      available: (BIG - 1n).toString(),
      required: BIG.toString(),
    });
    expect(error.inventory).toEqual({ balance, held, available: BIG - 1n });
    expect((await store.intents.get({ projectId: project.id, intentId: late }))?.status).toBe('QUOTED');
    // The intent's read, then the held sum in the move (Postgres) or the held read (SQLite, no move).
    expect(statements).toHaveLength(2);
    if (store.capabilities.supportsDataModifyingWith) expect(statements[1]).toMatch(/^with "held" as/);

    balance = held + BIG;
    const { statements: committing } = await statementsDuring(() => commit({ intentId: late }, project.id));
    const stored = await store.intents.get({ projectId: project.id, intentId: late });
    expect(stored?.status).toBe('COMMITTED');
    expect(stored?.committedAt).toBeInstanceOf(Date);
    // Postgres: the intent's read and the move with its held sum; SQLite: the held read beside them.
    expect(committing).toHaveLength(store.capabilities.supportsDataModifyingWith ? 2 : 3);
    // Committed, it holds its fill: the next one is refused with it counted.
    const next = await quoted(1n);
    const short = await commit({ intentId: next }, project.id).catch((e: unknown) => e);
    expect((short as InsufficientInventoryError).inventory).toEqual({
      balance,
      held: held + BIG,
      available: 0n,
    });
  });
});
