/**
 * The relayer's and the solver's balances of every listed token (native included) on every chain, for the
 * `switchyard_operator_balance_tokens` gauge. One round of reads serves every scrape for BALANCES_TTL_MS, so
 * several Prometheus servers scraping every few seconds cost one round per chain and token. A read that
 * fails, or has not answered within BALANCE_READ_TIMEOUT_MS, leaves that balance out (the RPC error is
 * counted by the metered fetch), so a chain that is down never holds the scrape past Prometheus's timeout.
 */
import { type Address, erc20Abi, formatUnits, type PublicClient, zeroAddress } from 'viem';
import { createTtlMemo } from '../chains/ttl-memo.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import type { OperatorBalance } from './state-gauges.ts';

/** How long one round of balance reads answers scrapes (ms): a balance moves once per fill or fee. */
export const BALANCES_TTL_MS = 15_000;
/** A balance read still unanswered after this long (ms) is left out: Prometheus gives up a scrape after 10 s. */
export const BALANCE_READ_TIMEOUT_MS = 3_000;

export interface OperatorBalancesDeps {
  chains: readonly ChainConfig[];
  clients: ReadonlyMap<number, PublicClient>;
  operators: { relayer: Address; solver: Address };
  /** How long one round answers scrapes (ms); 0 reads at every scrape (tests). Default BALANCES_TTL_MS. */
  ttlMs?: number | undefined;
}

export function createOperatorBalances(deps: OperatorBalancesDeps): () => Promise<OperatorBalance[]> {
  const ttlMs = deps.ttlMs ?? BALANCES_TTL_MS;
  const memo = ttlMs > 0 ? createTtlMemo<'round', OperatorBalance[]>(ttlMs) : undefined;
  const round = async (): Promise<OperatorBalance[]> => {
    const reads = deps.chains.flatMap((chain) => {
      const client = deps.clients.get(chain.chainId);
      if (!client) return [];
      return Object.entries(deps.operators).flatMap(([role, holder]) =>
        tokensOf(chain).map(async (token): Promise<OperatorBalance> => {
          const balance = await withinTimeout(
            token.address === zeroAddress
              ? client.getBalance({ address: holder })
              : client.readContract({
                  address: token.address,
                  abi: erc20Abi,
                  functionName: 'balanceOf',
                  args: [holder],
                }),
          );
          // The one place an amount becomes a float: Prometheus holds float64 values only.
          return {
            role,
            chainId: chain.chainId,
            token: token.symbol,
            tokens: Number(formatUnits(balance, token.decimals)),
          };
        }),
      );
    });
    const settled = await Promise.allSettled(reads);
    return settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  };
  return () => (memo ? memo.get('round', round) : round());
}

function withinTimeout<T>(read: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('balance read timed out')), BALANCE_READ_TIMEOUT_MS);
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

/** The chain's listed tokens, and its native currency when the list leaves it out. */
function tokensOf(chain: ChainConfig): { address: Address; symbol: string; decimals: number }[] {
  if (chain.tokens.some((t) => t.address === zeroAddress)) return chain.tokens;
  return [{ address: zeroAddress, ...chain.nativeCurrency }, ...chain.tokens];
}
