/**
 * A position on the wire as the reference's YieldBalances: one `active` balance per market the address holds
 * shares of, its value in the underlying (`amount` in whole tokens, `amountRaw` in base units) and in USD,
 * the shares themselves (`shareAmount`, `shareAmountRaw`, `shareToken`), and the yield earned so far
 * (`earnedAmount`, `earnedAmountRaw`, `earnedAmountUsd`: the value now less what was paid, docs/yield.md),
 * absent when the vault's logs do not tell what was paid. `blockNumber` is the block everything was read at.
 */
import { formatUnits } from 'viem';
import type { MarketBalances, PositionReport } from '../../../yield/index.ts';

export function toWireBalances(item: MarketBalances) {
  return { yieldId: item.yieldId, balances: item.positions.map(toWireBalance) };
}

function toWireBalance(position: PositionReport) {
  const { market, metadata, priceUsd } = position;
  const { decimals } = metadata.asset;
  const network = market.network;
  const usd = (amount: bigint) =>
    priceUsd === undefined ? undefined : String(Number(formatUnits(amount, decimals)) * priceUsd);
  const earned = position.basis === undefined ? undefined : position.value - position.basis;
  return {
    address: position.holder,
    type: 'active',
    amount: formatUnits(position.value, decimals),
    amountRaw: position.value.toString(),
    amountUsd: usd(position.value),
    pendingActions: [],
    token: { ...tokenOf(metadata.asset), network, chainId: String(market.chainId) },
    isEarning: position.shares > 0n,
    shareAmount: formatUnits(position.shares, metadata.decimals),
    shareAmountRaw: position.shares.toString(),
    shareToken: {
      symbol: metadata.symbol,
      name: metadata.name,
      decimals: metadata.decimals,
      address: market.vault,
      network,
      chainId: String(market.chainId),
    },
    ...(earned !== undefined && {
      earnedAmount: formatUnits(earned, decimals),
      earnedAmountRaw: earned.toString(),
      earnedAmountUsd: usd(earned),
      costBasisRaw: position.basis!.toString(),
    }),
    blockNumber: position.blockNumber.toString(),
  };
}

function tokenOf(asset: PositionReport['metadata']['asset']) {
  return { symbol: asset.symbol, name: asset.name, decimals: asset.decimals, address: asset.address };
}
