/**
 * ERC-20 totals per chain and token over the audited holder set (audit.ts `holders`: roles, listed
 * contracts, pairs, the block producer and the addresses the run created), read at the chain's head.
 * For runs whose chains restart from a state file: anvil keeps blocks but not the state of past blocks
 * across a restart, so `conservation` (which reads balances at the start block) cannot be used there;
 * totals read before and after each intent can. Native is left out: gas burns it. Every balance of a chain
 * is read at one block (its head when the count starts): read at `latest` one by one, a transfer mined in
 * between (an origin execution started by the deposit watcher) was counted twice or not at all.
 */
import { type Address, erc20Abi, zeroAddress } from 'viem';
import { holders } from './audit.ts';
import type { ResilienceService } from './resilience-service.ts';

export async function tokenTotals(
  svc: ResilienceService,
  created: Address[],
): Promise<Record<string, bigint>> {
  const totals: Record<string, bigint> = {};
  for (const chain of svc.net.chains) {
    const who = await holders(svc, chain, created);
    const blockNumber = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    for (const [symbol, token] of Object.entries(chain.entry.tokens)) {
      if (token === zeroAddress) continue;
      let total = 0n;
      for (const address of who) {
        total += await chain.publicClient.readContract({
          address: token as Address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [address],
          blockNumber,
        });
      }
      totals[`${chain.entry.name} ${symbol}`] = total;
    }
  }
  return totals;
}
