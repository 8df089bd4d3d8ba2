/**
 * One holder's position in one market, read at one block: the shares held, what they redeem for now
 * (`previewRedeem`), and what was paid for them (cost-basis.ts) from the vault's Deposit, Withdraw and
 * Transfer logs up to that block. The logs are read from the chain's first block: a node that refuses
 * the range (some hosted RPCs cap `eth_getLogs`) leaves the cost, and so the yield earned, unknown
 * (`basisError`), and the position is still answered.
 */
import type { Address, Log, PublicClient } from 'viem';
import { costBasis, type ShareEvent } from './cost-basis.ts';
import { readVault } from './read-vault.ts';
import type { MarketConfig } from './types.ts';
import { depositEvent, transferEvent, withdrawEvent } from './vault-abi.ts';

export interface PositionReading {
  market: MarketConfig;
  holder: Address;
  blockNumber: bigint;
  shares: bigint;
  /** Base units of the underlying the shares redeem for at `blockNumber`. */
  value: bigint;
  /** Base units of the underlying paid for the shares; undefined when the logs do not tell. */
  basis: bigint | undefined;
  /** Why `basis` is unknown, when the logs could not be read. */
  basisError?: string | undefined;
}

export async function readPosition(
  client: PublicClient,
  market: MarketConfig,
  holder: Address,
): Promise<PositionReading> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  const shares = await readVault(client, market.vault, 'balanceOf', holder, blockNumber);
  const value =
    shares === 0n ? 0n : await readVault(client, market.vault, 'previewRedeem', shares, blockNumber);
  const base = { market, holder, blockNumber, shares, value };
  try {
    const events = await readShareEvents(client, market.vault, holder, blockNumber);
    return { ...base, basis: costBasis(holder, events, { shares, value }) };
  } catch (error) {
    return { ...base, basis: undefined, basisError: error instanceof Error ? error.message : String(error) };
  }
}

/** The holder's Deposit, Withdraw and share Transfer events in the vault up to `toBlock`, in chain order. */
async function readShareEvents(
  client: PublicClient,
  vault: Address,
  holder: Address,
  toBlock: bigint,
): Promise<ShareEvent[]> {
  const range = { address: vault, fromBlock: 0n, toBlock } as const;
  const [deposits, withdrawals, sent, received] = await Promise.all([
    client.getLogs({ ...range, event: depositEvent, args: { owner: holder }, strict: true }),
    client.getLogs({ ...range, event: withdrawEvent, args: { owner: holder }, strict: true }),
    client.getLogs({ ...range, event: transferEvent, args: { from: holder }, strict: true }),
    client.getLogs({ ...range, event: transferEvent, args: { to: holder }, strict: true }),
  ]);
  const byPlace = new Map<string, { log: Log; event: ShareEvent }>();
  const add = (log: Log, event: ShareEvent) =>
    byPlace.set(`${log.blockNumber}:${log.logIndex}`, { log, event });
  for (const log of deposits) {
    const { owner, assets, shares } = log.args;
    add(log, { kind: 'deposit', owner, assets, shares });
  }
  for (const log of withdrawals) {
    const { owner, assets, shares } = log.args;
    add(log, { kind: 'withdraw', owner, assets, shares });
  }
  for (const log of [...sent, ...received]) {
    const { from, to, value } = log.args;
    add(log, { kind: 'transfer', from, to, shares: value });
  }
  return [...byPlace.values()]
    .sort(
      (a, b) =>
        compare(a.log.blockNumber, b.log.blockNumber) || (a.log.logIndex ?? 0) - (b.log.logIndex ?? 0),
    )
    .map((entry) => entry.event);
}

function compare(a: bigint | null, b: bigint | null): number {
  const [x, y] = [a ?? 0n, b ?? 0n];
  return x < y ? -1 : x > y ? 1 : 0;
}
