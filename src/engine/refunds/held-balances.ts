/**
 * What an intent address holds that a refund can return: the deposit token, every token listed for the
 * chain (a deposit in the wrong token is found here) and native currency. Only non-zero balances.
 */
import { type Address, formatUnits, zeroAddress } from 'viem';
import type { ChainConfig } from '../../internal/config-types.ts';
import { balanceAt } from '../chain-reads.ts';
import type { EngineChain } from '../context.ts';

export interface HeldBalance {
  /** Zero address = native. */
  token: Address;
  amount: bigint;
}

export async function heldBalances(
  chain: EngineChain,
  holder: Address,
  depositToken: Address,
): Promise<HeldBalance[]> {
  const tokens = new Map<string, Address>([[zeroAddress, zeroAddress]]);
  tokens.set(depositToken.toLowerCase(), depositToken);
  for (const t of chain.config.tokens) tokens.set(t.address.toLowerCase(), t.address);
  const held: HeldBalance[] = [];
  for (const token of tokens.values()) {
    const amount = await balanceAt(chain.client, token, holder);
    if (amount > 0n) held.push({ token, amount });
  }
  return held;
}

/** "12.5 USDC, 0.01 ETH" for status reasons; unlisted tokens in base units with their address. */
export function describeAmounts(config: ChainConfig, amounts: readonly HeldBalance[]): string {
  return amounts
    .map(({ token, amount }) => {
      if (token === zeroAddress) {
        return `${formatUnits(amount, config.nativeCurrency.decimals)} ${config.nativeCurrency.symbol}`;
      }
      const listed = config.tokens.find((t) => t.address.toLowerCase() === token.toLowerCase());
      return listed
        ? `${formatUnits(amount, listed.decimals)} ${listed.symbol}`
        : `${amount} of token ${token}`;
    })
    .join(', ');
}
