/**
 * Refund rounds already journaled for an intent on one chain: each round is its own transaction purpose
 * (`<prefix>1`, `<prefix>2`, …), so a crashed round is resumed, never signed again, and a round that left
 * something behind (a skipped token, a late deposit) is followed by a new one.
 */
import type { EngineContext } from '../context.ts';

export interface RefundRound {
  purpose: string;
  /** Mined or failed: a new round may follow. Otherwise the round is resumed. */
  finished: boolean;
}

/** Oldest first. */
export async function refundRounds(
  ctx: Pick<EngineContext, 'store'>,
  input: { intentId: string; chainId: number; prefix: string },
): Promise<RefundRound[]> {
  const signed = await ctx.store.signedTransactions.listForIntent(input.intentId);
  const rounds = new Map<string, boolean>();
  for (const tx of signed) {
    if (tx.chainId !== input.chainId || !tx.purpose.startsWith(input.prefix)) continue;
    const finished = tx.status === 'mined' || tx.status === 'failed';
    rounds.set(tx.purpose, (rounds.get(tx.purpose) ?? false) || finished);
  }
  return [...rounds].map(([purpose, finished]) => ({ purpose, finished }));
}
