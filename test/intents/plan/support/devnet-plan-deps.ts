/**
 * What the plan builder reads, on a test devnet: its chains and clients, prices from its own pools
 * (prices.ts) and the devnet's operator addresses.
 */
import type { PlanDeps } from '../../../../src/intents/plan/types.ts';
import type { TestDevnet } from '../../../harness/devnet.ts';
import { poolPrices } from './prices.ts';
import { chainOf } from './run-plan.ts';

export function devnetPlanDeps(net: TestDevnet): PlanDeps {
  const accounts = net.devnet.accounts;
  return {
    chains: net.chainConfigs,
    getClient: (chainId) => chainOf(net, chainId).publicClient,
    getPriceUsd: poolPrices(net),
    operator: {
      relayer: accounts.relayer!.address,
      solver: accounts.solver!.address,
      feeCollector: accounts.feeCollector!.address,
    },
  };
}
