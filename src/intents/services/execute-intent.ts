/**
 * ExecuteIntent: hands a committed intent to the engine with the deposit's transaction hash (mined or not)
 * or a gasless deposit signature. Repeats are harmless. A mined transaction that paid the intent address
 * nothing of the deposit token is refused naming `depositTransactionHash` (the engine checks it). Outcomes
 * by status:
 * - QUOTED: IntentStatus (commit first);
 * - COMMITTED after its execute window: QuoteExpired (a new quote and commit are needed);
 * - COMMITTED or EXECUTING: the engine is asked (idempotently) and the current status is returned;
 * - SUCCEEDED, FAILED, REFUNDED, ABORTED, INVALID: IntentStatus with `intent status=<S>` in `cause`
 *   (the official client treats `status=SUCCEEDED` there as success).
 */
import type { Handler } from '../../api/context.ts';
import {
  IntentStatusError,
  InvalidArgumentError,
  NotFoundError,
  QuoteExpiredError,
} from '../../api/errors/rpc-errors.ts';
import { ForeignDepositTransactionError } from '../../engine/errors.ts';
import { GaslessEntryConflictError } from '../../engine/gasless/index.ts';
import { SwitchyardError } from '../../internal/errors.ts';
import type { IntentRecord } from '../../store/index.ts';
import { verifyDepositSignature } from './gasless/index.ts';
import type { IntentServicesDeps } from './types.ts';

/** r, s, v: the only signature form an EOA owner produces (contract-wallet signatures are not supported). */
const SIGNATURE_65_BYTES = /^0x[0-9a-fA-F]{130}$/;

/** The engine refused a gasless deposit signature; the message says why. */
export class DepositSignatureRejectedError extends InvalidArgumentError {}

/** The named deposit transaction is mined and paid the intent address nothing: not this intent's deposit. */
export class DepositTransactionRejectedError extends InvalidArgumentError {}

export function createExecuteIntent(deps: IntentServicesDeps, now: () => Date): Handler<'ExecuteIntent'> {
  const { store, engine } = deps;
  return async (input, ctx) => {
    const { depositTransactionHash, depositSignature } = input;
    if (!depositTransactionHash && !depositSignature) {
      throw new InvalidArgumentError(
        'depositTransactionHash',
        'is required (or depositSignature for a gasless deposit)',
      );
    }
    if (depositSignature && !SIGNATURE_65_BYTES.test(depositSignature.intentSignature)) {
      throw new InvalidArgumentError('depositSignature.intentSignature', 'must be a 65-byte signature');
    }
    const intentId = input.intentId.toLowerCase();
    const record = await store.intents.get({ projectId: ctx.projectId!, intentId });
    if (!record) throw new NotFoundError(`intent ${input.intentId} not found`);
    checkExecutable(record, now());
    if (depositSignature) {
      await verifyDepositSignature(deps, { projectId: ctx.projectId!, record, signature: depositSignature });
    }
    try {
      await engine.requestExecution({
        intentId,
        ...(depositTransactionHash && { depositTransactionHash: depositTransactionHash as `0x${string}` }),
        ...(depositSignature && { depositSignature }),
      });
    } catch (error) {
      throw rejectionOf(error, Boolean(depositSignature));
    }
    const current = await store.intents.get({ projectId: ctx.projectId!, intentId });
    return { intentId: record.intentId, intentStatus: current?.status ?? record.status };
  };
}

/** The engine's refusals of what the caller sent, as InvalidArgument naming the field; anything else as is. */
function rejectionOf(error: unknown, gasless: boolean): unknown {
  if (error instanceof ForeignDepositTransactionError) {
    return new DepositTransactionRejectedError('depositTransactionHash', error.message);
  }
  if (error instanceof GaslessEntryConflictError) {
    return new DepositSignatureRejectedError(error.field, error.problem);
  }
  if (gasless && error instanceof SwitchyardError && !('rpc' in error)) {
    return new DepositSignatureRejectedError('depositSignature', error.message);
  }
  return error;
}

function checkExecutable(record: IntentRecord, at: Date): void {
  const { status } = record;
  if (status === 'EXECUTING') return;
  if (status === 'QUOTED') {
    throw new IntentStatusError(
      `intent ${record.intentId} is not committed: call CommitIntent before ExecuteIntent`,
      status,
    );
  }
  if (status !== 'COMMITTED') {
    throw new IntentStatusError(`intent ${record.intentId} has already finished: it is ${status}`, status);
  }
  if (record.executeDeadline && at.getTime() >= record.executeDeadline.getTime()) {
    throw new QuoteExpiredError(
      `the execute window of intent ${record.intentId} closed at ${record.executeDeadline.toISOString()}; request a new quote and commit it`,
      { details: { executeDeadline: record.executeDeadline.toISOString(), now: at.toISOString() } },
    );
  }
}
