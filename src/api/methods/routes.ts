/**
 * Which listed tokens the configured providers connect. A chain with a Uniswap-V2-style router (or Uniswap
 * V3 with SwapRouter02) swaps
 * between all its listed tokens (native through WETH); two chains that both have Switchyard settlers
 * are connected by our bridge. So a token reaches every listed token on its own chain when the chain
 * can swap, and every listed token on every bridged chain that can swap on both ends.
 */
import type { ChainConfig } from '../../internal/config-types.ts';
import { type ApiDeps, requireChain } from '../context.ts';
import { NotFoundError } from '../errors/rpc-errors.ts';
import type { TokenInfo } from '../schemas/catalogue.ts';
import { listedTokens, sameAddress } from './listed-tokens.ts';

const canSwap = (c: ChainConfig) =>
  Boolean(c.contracts.uniswapV2Router || (c.contracts.uniswapV3Factory && c.contracts.uniswapSwapRouter02));
const canBridge = (c: ChainConfig) => Boolean(c.contracts.originSettler && c.contracts.destinationSettler);

export function connected(a: ChainConfig, b: ChainConfig): boolean {
  if (a.chainId === b.chainId) return canSwap(a);
  return canBridge(a) && canBridge(b) && canSwap(a) && canSwap(b);
}

/** The listed token, or NotFound naming the field. */
export function requireListedToken(
  deps: ApiDeps,
  chainId: number,
  address: string,
  field: string,
): TokenInfo {
  const chain = requireChain(deps, chainId, field.replace(/TokenAddress$/, 'ChainId'));
  const token = listedTokens(chain).find((t) => sameAddress(t.address, address));
  if (!token) throw new NotFoundError(`${field}: token ${address} is not listed on chain ${chainId}`);
  return token;
}

/** Listed tokens on `chains` reachable from/to `from` on chain `fromChain`, excluding `from` itself. */
export function reachableTokens(
  fromChain: ChainConfig,
  from: TokenInfo,
  chains: readonly ChainConfig[],
): TokenInfo[] {
  const out: TokenInfo[] = [];
  for (const chain of chains) {
    if (!connected(fromChain, chain)) continue;
    for (const token of listedTokens(chain)) {
      if (chain.chainId === fromChain.chainId && sameAddress(token.address, from.address)) continue;
      out.push(token);
    }
  }
  return out;
}
