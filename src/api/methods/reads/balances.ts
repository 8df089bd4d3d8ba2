/**
 * GetIntentHistory `includeBalances` / `onlyRecoverable`: the domain's read of a page's intent addresses on
 * every configured chain (src/intents/recovery/intent-balances.ts, the scan PrepareIntentRecovery uses) in the
 * wire's shape, each token with its USD price and value when the price source knows it.
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import {
  type AddressBalance,
  createIntentBalances,
  type IntentBalances,
} from '../../../intents/recovery/index.ts';
import type { ReceiptIntent, Store } from '../../../store/index.ts';
import type { ApiDeps } from '../../context.ts';
import type { IntentHistory } from '../../schemas/receipt.ts';

/**
 * A balance read that takes longer than this fails the request as Unavailable (retry later) rather than
 * stalling the page; a missing balance would read as "nothing to recover".
 */
const BALANCE_READ_TIMEOUT_MS = 3_000;

type IntentBalance = NonNullable<IntentHistory['balances']>[number];
type TokenBalance = IntentBalance['tokens'][number];

export interface PageBalances {
  /** Per intent id: its balances on the wire, whether it holds anything, whether any of it is recoverable. */
  get(intentId: string): { balances: IntentBalance[]; hasBalance: boolean; recoverable: boolean };
}

export function createBalanceReader(deps: ApiDeps, store: Store) {
  const clients = new Map<number, PublicClient>();
  for (const chain of deps.chains) {
    if (!chain.rpcUrls[0]) continue;
    const transport = http(chain.rpcUrls[0], { timeout: BALANCE_READ_TIMEOUT_MS });
    clients.set(chain.chainId, createPublicClient({ transport }) as PublicClient);
  }
  const read = createIntentBalances({ chains: deps.chains, clients, prices: deps.prices, store });

  return async (projectId: number, intents: readonly ReceiptIntent[]): Promise<PageBalances> => {
    const found = await read(projectId, intents);
    const byId = new Map(intents.map((i) => [i.intentId, i]));
    return {
      get(intentId) {
        const held: IntentBalances = found.get(intentId) ?? { balances: [], recoverable: false };
        return {
          balances: toWire(byId.get(intentId)!, held.balances),
          hasBalance: held.balances.length > 0,
          recoverable: held.recoverable,
        };
      },
    };
  };
}

/**
 * One entry per address and chain: the intent's two home entries (the origin address on the origin chain,
 * the destination address on the destination chain) always, then every other address and chain that holds
 * something (a deposit on the wrong chain).
 */
function toWire(intent: ReceiptIntent, balances: readonly AddressBalance[]): IntentBalance[] {
  const entries = new Map<string, IntentBalance>();
  const entry = (holder: string, chainId: number): IntentBalance => {
    const key = `${holder.toLowerCase()}@${chainId}`;
    let found = entries.get(key);
    if (!found) {
      found = { intentAddress: holder.toLowerCase(), chainId, tokens: [] };
      entries.set(key, found);
    }
    return found;
  };
  entry(intent.originIntentAddress, intent.originChainId);
  entry(intent.destinationIntentAddress, intent.destinationChainId);
  for (const b of balances) entry(b.holder, b.chainId).tokens.push(tokenToWire(b));
  return [...entries.values()];
}

function tokenToWire(b: AddressBalance): TokenBalance {
  const token: TokenBalance = {
    contractAddress: b.token.toLowerCase(),
    balance: b.amount.toString(),
    decimals: b.decimals,
    chainId: b.chainId,
    symbol: b.symbol,
  };
  if (b.priceUsd !== undefined && b.valueUsd !== undefined) {
    // USD values are for display (the spec types them as strings); the amount stays exact in `balance`.
    token.priceUsd = String(b.priceUsd);
    token.balanceUsd = String(b.valueUsd);
  }
  return token;
}
