/**
 * Watches what an operator must act on per chain, every CHAIN_HEALTH_CHECK_MS in the API process:
 * - a token whose `lowWaterMark` is set: the solver's inventory of it, less what open orders hold, is below
 *   the mark (the solver should be funded before quotes are refused);
 * - a chain whose `maxFeePerGasGwei` is set: its base fee (legacy: gas price) is above the cap, so its
 *   transactions wait and its quotes are refused.
 * A condition that starts is logged as a warning once, and its end as info; while any holds, RuntimeStatus
 * marks the chain degraded with the reasons (src/api/methods/runtime-status.ts). A failed read keeps the
 * chain's last verdict (an unreachable RPC is the chain probe's to report).
 */
import { type Address, formatGwei, formatUnits, type PublicClient, zeroAddress } from 'viem';
import { readChainFees } from '../chains/chain-fees.ts';
import { feesToSign } from '../chains/fee-caps.ts';
import type { ChainConfig, TokenConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import { CHAIN_HEALTH_CHECK_MS } from './constants.ts';
import type { SolverInventory } from './create-solver-inventory.ts';

export interface ChainHealth {
  /** The reasons each degraded chain is degraded, as of the last check; a healthy chain has no entry. */
  degraded(): ReadonlyMap<number, readonly string[]>;
  /** One round of checks now (the timer runs them too). */
  check(): Promise<void>;
  stop(): void;
}

export interface ChainHealthDeps {
  chains: readonly ChainConfig[];
  inventory: Pick<SolverInventory, 'read'>;
  getClient(chainId: number): PublicClient;
  log: Logger;
  intervalMs?: number;
}

/** One condition of one chain: a stable key (so a changing amount is not a new warning) and its text. */
type Conditions = Map<string, string>;

export function startChainHealthMonitor(deps: ChainHealthDeps): ChainHealth {
  const watched = deps.chains.filter((c) => c.maxFeePerGasWei !== undefined || marked(c).length > 0);
  const state = new Map<number, Conditions>();
  let running: Promise<void> | undefined;

  async function checkChain(chain: ChainConfig): Promise<void> {
    let found: Conditions;
    try {
      found = await conditionsOf(chain, deps);
    } catch (error) {
      deps.log.debug('chain health check failed; the last verdict stands', { chainId: chain.chainId, error });
      return;
    }
    const before = state.get(chain.chainId) ?? new Map();
    for (const [key, text] of found) {
      if (!before.has(key)) deps.log.warn(text, { chainId: chain.chainId, condition: key });
    }
    if (before.size > 0 && found.size === 0) {
      deps.log.info('chain no longer degraded', { chainId: chain.chainId, was: [...before.values()] });
    }
    if (found.size > 0) state.set(chain.chainId, found);
    else state.delete(chain.chainId);
  }

  const check = () => {
    // Rounds never overlap: a slow RPC makes the next round wait, not pile up.
    running ??= Promise.all(watched.map(checkChain)).then(
      () => {
        running = undefined;
      },
      () => {
        running = undefined;
      },
    );
    return running;
  };

  const timer =
    watched.length > 0
      ? setInterval(() => void check(), deps.intervalMs ?? CHAIN_HEALTH_CHECK_MS)
      : undefined;
  timer?.unref();
  if (watched.length > 0) void check();

  return {
    degraded: () => new Map([...state].map(([chainId, found]) => [chainId, [...found.values()]])),
    check,
    stop: () => clearInterval(timer),
  };
}

function marked(chain: ChainConfig): (TokenConfig & { lowWaterMark: bigint })[] {
  return chain.tokens.filter(
    (t): t is TokenConfig & { lowWaterMark: bigint } =>
      t.lowWaterMark !== undefined && t.address !== zeroAddress,
  );
}

async function conditionsOf(chain: ChainConfig, deps: ChainHealthDeps): Promise<Conditions> {
  const found: Conditions = new Map();
  const client = deps.getClient(chain.chainId);
  const [views, fees] = await Promise.all([
    Promise.all(marked(chain).map((t) => deps.inventory.read(chain.chainId, t.address as Address))),
    chain.maxFeePerGasWei === undefined
      ? undefined
      : readChainFees(client, client.getBlock({ blockTag: 'latest' })),
  ]);
  marked(chain).forEach((token, i) => {
    const view = views[i]!;
    if (view.available >= token.lowWaterMark) return;
    const units = (amount: bigint) => `${formatUnits(amount, token.decimals)} ${token.symbol}`;
    found.set(
      `low-water:${token.address.toLowerCase()}`,
      `solver inventory of ${token.symbol} on chain ${chain.chainId} is below its low-water mark: ` +
        `${units(view.available)} available (balance ${units(view.balance)}, ${units(view.held)} held by open orders), ` +
        `mark ${units(token.lowWaterMark)}`,
    );
  });
  const verdict = fees && feesToSign(fees, chain.maxFeePerGasWei);
  if (verdict && 'overCap' in verdict) {
    found.set(
      'fee-cap',
      `gas on chain ${chain.chainId} is above its cap: the chain asks ${formatGwei(verdict.overCap.price)} gwei ` +
        `per gas, the cap is ${formatGwei(verdict.overCap.cap)} gwei; its transactions wait and its quotes are refused`,
    );
  }
  return found;
}
