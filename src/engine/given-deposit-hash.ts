/**
 * ExecuteIntent named the deposit transaction, but the deposit step counted the deposit without knowing it
 * (the deposit watcher started the intent first, and a native deposit leaves no log to find it by): the
 * SUCCEEDED deposit row gets the hash, its sender and its block time, once that transaction is mined and
 * paid the intent address (deposit-payment.ts). Anything else leaves the row as it is.
 *
 * Both sides call it after their own write, so no order of the two loses the hash: ExecuteIntent after it
 * wrote the hash (on the intent, and on the deposit row unless that is final), with its hash; the deposit
 * step after it wrote the row SUCCEEDED without a hash, with none: the hash is then taken from the row (where
 * ExecuteIntent's PENDING write leaves it; the intent keeps no hash given after the watcher set EXECUTING,
 * since a status write to the same status changes nothing) or from the intent. Whichever side writes second
 * sees the other's write.
 */
import type { Address, Hex } from 'viem';
import type { Store } from '../store/types.ts';
import type { EngineContext } from './context.ts';
import { readDepositPayment } from './deposit-payment.ts';

export async function recordGivenDepositHash(
  ctx: Pick<EngineContext, 'chain'> & { store: Store },
  input: {
    intentId: string;
    chainId: number;
    originAddress: Address;
    depositToken: Address;
    hash?: Hex | undefined;
  },
): Promise<void> {
  const rows = await ctx.store.transactions.list(input.intentId);
  const row = rows.find((r) => r.kind === 'deposit');
  if (row?.status !== 'SUCCEEDED') return;
  const hash =
    input.hash ??
    (row.txnHash as Hex | null) ??
    ((await ctx.store.intents.getForEngine(input.intentId))?.depositTransactionHash as Hex | null);
  if (!hash) return;
  // Complete already, or showing another transaction (the deposit step found the ERC-20 transfer): kept.
  // ExecuteIntent's PENDING write can leave the hash alone on the row, without its sender and time.
  const sameHash = row.txnHash?.toLowerCase() === hash.toLowerCase();
  if (row.txnHash && !(sameHash && (!row.minedAt || !row.fromAddress))) return;
  const { client } = ctx.chain(input.chainId);
  const payment = await readDepositPayment(client, hash, {
    to: input.originAddress,
    token: input.depositToken,
  }).catch(() => undefined);
  if (payment?.state !== 'paid') return;
  await ctx.store.transactions.upsert({
    intentId: input.intentId,
    kind: 'deposit',
    chainId: input.chainId,
    status: 'SUCCEEDED',
    txnHash: hash,
    fromAddress: payment.from,
    minedAt: payment.minedAt,
  });
}
