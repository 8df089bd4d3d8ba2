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
import { createContractRead } from '../providers/contract-read.ts';
import { InsufficientInventoryError, type InventoryView } from '../providers/errors.ts';
import type { InventorySource } from '../providers/switchyard-bridge.ts';
import type { Store } from '../store/types.ts';
import { INVENTORY_CACHE_MS } from './constants.ts';

const readBalance = createContractRead(erc20Abi, 'balanceOf');

export interface SolverInventory extends InventorySource {
  /** Fresh: the balance and the holds read now. */
  read(chainId: number, token: Address): Promise<InventoryView>;
  /**
   * Runs `commit` once the fill of `amount` fits in what is available now (read fresh), alone among this
   * process's reservations of the same chain and token; InsufficientInventoryError when it does not fit.
   */
  reserve<T>(fill: { chainId: number; token: Address; amount: bigint }, commit: () => Promise<T>): Promise<T>;
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
  const reservations = new Map<string, Promise<unknown>>();
  const keyOf = (chainId: number, token: Address) => `${chainId}:${token.toLowerCase()}`;

  async function read(chainId: number, token: Address): Promise<InventoryView> {
    const [balance, held] = await Promise.all([
      readBalance(deps.getClient(chainId), token, [deps.solver]),
      deps.store.solverInventory.held({ fillPurpose: FILL_PURPOSE, chainId, tokenAddress: token }),
    ]);
    const holds = held.reduce((sum, h) => sum + h.amount, 0n);
    return { balance, held: holds, available: balance > holds ? balance - holds : 0n };
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
      const check = async () => {
        const view = await read(fill.chainId, fill.token);
        if (view.available < fill.amount) {
          throw new InsufficientInventoryError(
            fill.chainId,
            tokenOf(fill.chainId, fill.token),
            view,
            fill.amount,
          );
        }
        try {
          return await commit();
        } finally {
          // The next quote sees this commit's hold instead of a view from before it.
          views.delete(key);
        }
      };
      const previous = reservations.get(key) ?? Promise.resolve();
      const run = previous.then(check, check);
      const tail = run.catch(() => undefined);
      reservations.set(key, tail);
      void tail.then(() => {
        if (reservations.get(key) === tail) reservations.delete(key);
      });
      return run;
    },
  };
}
