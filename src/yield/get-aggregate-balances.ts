/**
 * YieldGetAggregateBalances: for each query (an address on a network, optionally one market by `yieldId`),
 * the address's positions read on-chain with their value in the underlying, its USD price and what was paid
 * for them (read-position.ts). A query that cannot be answered (an unknown network or market, a market on
 * another network, a chain that does not answer) is reported in `errors` and the others are still answered.
 * Without `yieldId` a query lists only the markets where the address holds shares.
 */
import type { Address, PublicClient } from 'viem';
import { normaliseAddress } from '../internal/normalise-address.ts';
import type { MarketReader } from './create-market-reader.ts';
import type { MarketLookup } from './find-market.ts';
import { findNetwork, type YieldNetwork } from './find-network.ts';
import { type PositionReading, readPosition } from './read-position.ts';
import type { MarketConfig, VaultMetadata, YieldPrices } from './types.ts';

export interface BalanceQuery {
  yieldId?: string | undefined;
  address: string;
  network: string;
}

export interface PositionReport extends PositionReading {
  metadata: VaultMetadata;
  /** USD per whole token of the underlying; undefined when the price source has none. */
  priceUsd: number | undefined;
}

export interface MarketBalances {
  yieldId: string;
  /** One position, or none when the address holds no shares of a market the query named. */
  positions: PositionReport[];
}

export interface BalanceError {
  yieldId: string;
  error: string;
}

export interface AggregateBalances {
  items: MarketBalances[];
  errors: BalanceError[];
}

export interface AggregateBalancesDeps {
  markets: readonly MarketConfig[];
  networks: readonly YieldNetwork[];
  lookup: MarketLookup;
  reader: MarketReader;
  prices: YieldPrices;
  getClient(chainId: number): PublicClient;
}

export function createGetAggregateBalances(
  deps: AggregateBalancesDeps,
): (queries: readonly BalanceQuery[]) => Promise<AggregateBalances> {
  return async (queries) => {
    const answers = await Promise.all(queries.map((query, i) => answer(deps, query, `queries[${i}]`)));
    return {
      items: answers.flatMap((a) => a.items),
      errors: answers.flatMap((a) => a.errors),
    };
  };
}

async function answer(
  deps: AggregateBalancesDeps,
  query: BalanceQuery,
  at: string,
): Promise<AggregateBalances> {
  const yieldId = query.yieldId ?? '';
  const refuse = (error: string): AggregateBalances => ({ items: [], errors: [{ yieldId, error }] });
  const holder = normaliseAddress(query.address);
  if (!holder) return refuse(`${at}.address: must be a 20-byte hex address (0x followed by 40 hex digits)`);
  const network = findNetwork(deps.networks, query.network);
  if (!network) {
    return refuse(`${at}.network: '${query.network}' has no yield markets here; YieldGetNetworks lists them`);
  }
  let markets: readonly MarketConfig[];
  try {
    markets = query.yieldId
      ? [deps.lookup.byId(query.yieldId, `${at}.yieldId`)]
      : deps.markets.filter((m) => m.chainId === network.chainId);
  } catch (error) {
    return refuse((error as Error).message);
  }
  const foreign = markets.find((m) => m.chainId !== network.chainId);
  if (foreign)
    return refuse(`${at}.yieldId: market ${foreign.id} is on ${foreign.network}, not ${network.name}`);
  const settled = await Promise.allSettled(markets.map((m) => report(deps, m, holder)));
  const out: AggregateBalances = { items: [], errors: [] };
  settled.forEach((result, i) => {
    const market = markets[i]!;
    if (result.status === 'rejected') {
      const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
      out.errors.push({
        yieldId: market.id,
        error: `${at}: chain ${market.chainId} could not be read: ${reason}`,
      });
      return;
    }
    const position = result.value;
    if (position.basisError !== undefined) {
      out.errors.push({
        yieldId: market.id,
        error: `${at}: the yield earned is unknown: the vault's logs could not be read: ${position.basisError}`,
      });
    }
    if (position.shares > 0n) out.items.push({ yieldId: market.id, positions: [position] });
    else if (query.yieldId) out.items.push({ yieldId: market.id, positions: [] });
  });
  return out;
}

async function report(
  deps: AggregateBalancesDeps,
  market: MarketConfig,
  holder: Address,
): Promise<PositionReport> {
  const [metadata, position] = await Promise.all([
    deps.reader.metadata(market),
    readPosition(deps.getClient(market.chainId), market, holder),
  ]);
  const priceUsd = await deps.prices.getPriceUsd(market.chainId, metadata.asset.address);
  return { ...position, metadata, priceUsd };
}
