/**
 * The solver's inventory net of what open orders hold, per chain and token: its balance on-chain minus the
 * fill amounts of committed and executing intents whose fill has not landed (store.solverInventory.held).
 *
 * - A quote reads it through `available`, reused for INVENTORY_CACHE_MS: a quote holds nothing.
 * - A commit goes through `reserve`: read fresh, refused (InsufficientInventoryError) when the intent's fill
 *   no longer fits, and the commit itself runs while no other commit of this process for the same chain and
 *   token is being checked, so two commits here cannot both take the last of it. Commits in different
 *   processes (several API processes on one Postgres) can still both pass within one moment; the later fill
 *   then waits for inventory (RetryLaterError) and, if none comes before its fill deadline, the order is
 *   refunded to the owner (docs/intents.md "The solver's inventory").
 */

import { type Address, erc20Abi, isAddressEqual, type PublicClient } from 'viem';
import { FILL_PURPOSE } from '../engine/steps/fill.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import { createKeyedQueue } from '../internal/keyed-queue.ts';
import { createContractRead } from '../providers/contract-read.ts';
import { InsufficientInventoryError, type InventoryView } from '../providers/errors.ts';
import type { InventorySource } from '../providers/switchyard-bridge.ts';
import type { InventoryCheck, Store } from '../store/types.ts';
import { INVENTORY_CACHE_MS } from './constants.ts';

const readBalance = createContractRead(erc20Abi, 'balanceOf');

export interface SolverInventory extends InventorySource {
  /** Fresh: the balance and the holds read now. */
  read(chainId: number, token: Address): Promise<InventoryView>;
  /**
   * Runs `commit` once the fill of `amount` fits in what is available now (read fresh), alone among this
   * process's reservations of the same chain and token; InsufficientInventoryError when it does not fit.
   * Where the store checks the inventory in a status move (Postgres), only the balance is read here and
   * `commit` gets the check to make its move with (StatusUpdate.inventory), the open fills' sum read in
   * the move's statement; its result's `held` decides as the separate read did.
   */
  reserve<T extends { held?: bigint }>(
    fill: { chainId: number; token: Address; amount: bigint },
    commit: (check: InventoryCheck | undefined) => Promise<T>,
  ): Promise<T>;
}

export interface SolverInventoryDeps {
  store: Store;
  chains: readonly ChainConfig[];
  getClient(chainId: number): PublicClient;
  solver: Address;
  cacheMs?: number;
  now?: () => number;
}

export function createSolverInventory(deps: SolverInventoryDeps): SolverInventory {
  const cacheMs = deps.cacheMs ?? INVENTORY_CACHE_MS;
  const now = deps.now ?? Date.now;
  const views = new Map<string, { at: number; view: Promise<InventoryView> }>();
  const reservations = createKeyedQueue();
  const keyOf = (chainId: number, token: Address) => `${chainId}:${token.toLowerCase()}`;

  async function read(chainId: number, token: Address): Promise<InventoryView> {
    const [balance, held] = await Promise.all([
      readBalance(deps.getClient(chainId), token, [deps.solver]),
      deps.store.solverInventory.held({ fillPurpose: FILL_PURPOSE, chainId, tokenAddress: token }),
    ]);
    return viewOf(
      balance,
      held.reduce((sum, h) => sum + h.amount, 0n),
    );
  }

  function available(chainId: number, token: Address): Promise<InventoryView> {
    const key = keyOf(chainId, token);
    const cached = views.get(key);
    if (cached && now() - cached.at < cacheMs) return cached.view;
    const entry = { at: now(), view: read(chainId, token) };
    views.set(key, entry);
    // A failed read is not kept: the next quote reads again.
    entry.view.catch(() => {
      if (views.get(key) === entry) views.delete(key);
    });
    return entry.view;
  }

  function tokenOf(chainId: number, token: Address) {
    const chain = deps.chains.find((c) => c.chainId === chainId);
    const listed = chain?.tokens.find((t) => isAddressEqual(t.address, token));
    return listed ?? { address: token, symbol: token, decimals: 0 };
  }

  return {
    available,
    read,
    reserve(fill, commit) {
      const key = keyOf(fill.chainId, fill.token);
      const refuse = (view: InventoryView) =>
        new InsufficientInventoryError(fill.chainId, tokenOf(fill.chainId, fill.token), view, fill.amount);
      // Postgres: the held read rides in the commit's move (one statement, not two).
      const checkInMove = async () => {
        const balance = await readBalance(deps.getClient(fill.chainId), fill.token, [deps.solver]);
        const moved = await commit({
          fillPurpose: FILL_PURPOSE,
          chainId: fill.chainId,
          tokenAddress: fill.token,
          balance,
          amount: fill.amount,
        }).finally(() => views.delete(key));
        if (moved.held === undefined) throw new Error('the commit did not check the inventory in its move');
        const view = viewOf(balance, moved.held);
        // The move's own guard, the same comparison: a refused move wrote nothing.
        if (view.available < fill.amount) throw refuse(view);
        return moved;
      };
      const checkApart = async () => {
        const view = await read(fill.chainId, fill.token);
        if (view.available < fill.amount) throw refuse(view);
        try {
          return await commit(undefined);
        } finally {
          // The next quote sees this commit's hold instead of a view from before it.
          views.delete(key);
        }
      };
      const check = deps.store.capabilities.supportsDataModifyingWith ? checkInMove : checkApart;
      return reservations(key, check);
    },
  };
}

function viewOf(balance: bigint, held: bigint): InventoryView {
  return { balance, held, available: balance > held ? balance - held : 0n };
}
