/**
 * Whether a node mines a block per transaction (anvil or Hardhat in automine mode): true or false from those
 * nodes, undefined from any other, which rejects both methods.
 */
import type { PublicClient } from 'viem';

const AUTOMINE_METHODS = ['anvil_getAutomine', 'hardhat_getAutomine'] as const;

export async function minesOnDemand(client: PublicClient): Promise<boolean | undefined> {
  for (const method of AUTOMINE_METHODS) {
    try {
      const automine = await client.request({ method: method as 'eth_chainId' });
      return automine === (true as unknown);
    } catch {
      // Not this kind of node.
    }
  }
  return undefined;
}
