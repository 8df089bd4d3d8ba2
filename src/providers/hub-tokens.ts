/**
 * The tokens a two-hop path may go through: the chain's wrapped native token and its USD reference token
 * (WETH and USDC on the devnet), where most liquidity sits on any chain. Bounding the middle to these keeps a
 * quote's pool reads independent of how many tokens a chain lists.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem';
import type { ChainConfig } from '../internal/config-types.ts';

export function hubTokens(chain: ChainConfig, exclude: readonly Address[]): Address[] {
  const hubs: Address[] = [];
  const weth = chain.contracts.weth;
  const usd = chain.tokens.find((t) => t.isUsdReference)?.address;
  for (const hub of [weth, usd]) {
    if (!hub || isAddressEqual(hub, zeroAddress)) continue;
    if (exclude.some((t) => isAddressEqual(t, hub)) || hubs.some((h) => isAddressEqual(h, hub))) continue;
    hubs.push(hub);
  }
  return hubs;
}
