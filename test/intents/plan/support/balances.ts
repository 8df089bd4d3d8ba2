/** Balances on a devnet chain: ERC-20 or native (zero address). */
import type { Address } from 'viem';
import { balanceOf } from '../../../harness/balances.ts';
import type { TestDevnetChain } from '../../../harness/devnet.ts';

export { balanceOf };

/** Every listed token and native on the chain: what an intent account must not keep after a run. */
export async function leftovers(chain: TestDevnetChain, account: Address): Promise<Record<string, bigint>> {
  const out: Record<string, bigint> = {};
  for (const [symbol, token] of Object.entries(chain.entry.tokens)) {
    const amount = await balanceOf(chain, token, account);
    if (amount > 0n) out[symbol] = amount;
  }
  return out;
}
