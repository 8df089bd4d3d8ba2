/**
 * Moves an intent to EXECUTING and journals its `deposit` and `origin-refund` steps: for ExecuteIntent (with
 * the deposit's hash, or a verified gasless signature) and for the deposit watcher (neither). Idempotent.
 *
 * A named deposit transaction is checked before anything is written (deposit-payment.ts): mined and paying
 * the intent address nothing of the deposit token, it is refused (ForeignDepositTransactionError) and
 * nothing is recorded. Not mined yet, it is accepted as a claim: kept on the intent (where the deposit step
 * checks it once the deposit is counted), never shown on the deposit row or matched by SearchIntents
 * until it is known to pay the address.
 */
import type { Address, Hex } from 'viem';
import { crashPoint } from '../chains/debug-crash-point.ts';
import { isTerminal } from '../store/statuses.ts';
import type { IntentRecord, IntentStatus } from '../store/types.ts';
import type { EngineContext } from './context.ts';
import { readDepositPayment } from './deposit-payment.ts';
import { ForeignDepositTransactionError, IntentNotFoundError } from './errors.ts';
import { type DepositIntentEntry, recordGaslessRequest } from './gasless/index.ts';
import { recordGivenDepositHash } from './given-deposit-hash.ts';
import { loadPlan } from './load-plan.ts';
import { rowAdvance } from './receipts.ts';
import { originRefundStep } from './refunds/origin-refund.ts';

export interface StartExecutionInput {
  intentId: string;
  depositTransactionHash?: Hex | undefined;
  gasless?: DepositIntentEntry | undefined;
  /** The row as the caller has just read it (ExecuteIntent); read here when absent (the deposit watcher). */
  intent?: IntentRecord | undefined;
}

/** Resolves to the intent's status as this call left it. */
export async function startExecution(ctx: EngineContext, input: StartExecutionInput): Promise<IntentStatus> {
  const { store } = ctx;
  const { intentId, depositTransactionHash: hash, gasless } = input;
  const intent = input.intent ?? (await store.intents.getForEngine(intentId));
  if (!intent) throw new IntentNotFoundError(`intent ${intentId} not found`, { details: { intentId } });
  if (isTerminal(intent.status)) return intent.status;
  const target = {
    to: intent.originIntentAddress as Address,
    token: intent.originTokenAddress as Address,
  };
  const paid = hash ? await checkNamedDeposit(ctx, intent.originChainId, hash, target) : false;
  // Before the status: a differing signature is refused with nothing moved, and a crash between the two
  // leaves an entry the repeat finds identical.
  if (gasless) await recordGaslessRequest(store, intent, gasless);
  // A named deposit's row moves with the status (one statement on Postgres), its event after the status's.
  const depositRow = hash
    ? rowAdvance(intentId, 'deposit', {
        chainId: intent.originChainId,
        status: 'PENDING',
        ...(paid && { txnHash: hash }),
      })
    : undefined;
  // The origin refund returns the deposit after the origin deadline if the origin never runs, and late
  // deposits (refunds/): journaled to look first at that deadline (originRefundStep.firstLookAt), not now.
  const firstLook = intent.planJson
    ? originRefundStep.firstLookAt?.(ctx, { intent, plan: loadPlan(intent) })
    : undefined;
  // The steps are journaled with the move, whether or not it moves (one statement on Postgres, one
  // transaction on SQLite, so no one sees EXECUTING without them): a racing ExecuteIntent or the deposit
  // watcher's start finds them journaled and leaves them.
  const moved = await ctx.moveWithSteps(
    {
      intentId,
      to: 'EXECUTING',
      ...(hash && { depositTransactionHash: hash }),
      ...(depositRow && { rowsAfter: [depositRow] }),
    },
    [{ step: 'deposit' }, { step: originRefundStep.name, runAt: firstLook }],
  );
  // Started by the deposit watcher (before this call, or between the read above and the hash's write): its
  // deposit step may have counted a native deposit already, with no hash to show for it. The status read
  // above cannot tell, so the row is looked at (given-deposit-hash.ts), after the hash's write, unless that
  // write moved the deposit row (`rowsWritten`, Postgres): the row was not SUCCEEDED then, and the deposit
  // step that writes it SUCCEEDED later looks after its own write and finds the hash.
  if (hash && moved.rowsWritten !== 1) {
    await recordGivenDepositHash(ctx, {
      intentId,
      chainId: intent.originChainId,
      originAddress: target.to,
      depositToken: target.token,
      hash,
    });
  }
  crashPoint('execute:accepted');
  return moved.status ?? intent.status;
}

/**
 * True when the transaction is mined and paid the address; false when it is not mined yet, or the chain
 * cannot be read now (an RPC outage must not refuse a deposit: the hash is then only a claim, checked by the
 * deposit step like an unmined one).
 */
async function checkNamedDeposit(
  ctx: EngineContext,
  chainId: number,
  hash: Hex,
  target: { to: Address; token: Address },
): Promise<boolean> {
  const payment = await readDepositPayment(ctx.chain(chainId).client, hash, target).catch(
    (error: unknown) => {
      ctx.log.warn('the named deposit could not be read; kept as a claim', { chainId, hash, error });
      return { state: 'unmined' } as const;
    },
  );
  if (payment.state === 'foreign') {
    throw new ForeignDepositTransactionError(payment.reason, { details: { hash, ...target } });
  }
  return payment.state === 'paid';
}
