/**
 * The intent's signed-transaction journal at the start of a step's run: the rows the statement that leased
 * the step read with it (Postgres, StepInput.journal), or a read now (SQLite, or a step run without them).
 *
 * A journal taken with the lease is as good as a read just after it: it is the statement's snapshot taken as
 * the lease is, with the journal marks that statement itself writes applied (lease-with-intent-postgres.ts),
 * and the rows a step acts on are its own purpose's, which only the holder of its lease writes. What each
 * step needs of other steps' rows is written before the statement that leases it (docs/engine.md, "The
 * journal comes with the lease on Postgres").
 */
import type { SignedTransaction } from '../store/types.ts';
import type { EngineContext, StepInput } from './context.ts';

/** The whole journal of the step's intent, in id order (SignedTransactionsRepo.listForIntent). */
export async function intentJournal(
  ctx: Pick<EngineContext, 'store'>,
  input: StepInput,
): Promise<readonly SignedTransaction[]> {
  return input.journal ?? (await ctx.store.signedTransactions.listForIntent(input.intent.intentId));
}

/** The journal's rows for a send's purpose and chain, as the sender's `journaled(request)` gives them. */
export async function journaledFor(
  ctx: Pick<EngineContext, 'sender'>,
  input: StepInput,
  request: { intentId: string; purpose: string; chainId: number },
): Promise<SignedTransaction[]> {
  if (!input.journal) return ctx.sender.journaled(request);
  return input.journal.filter((t) => t.purpose === request.purpose && t.chainId === request.chainId);
}
