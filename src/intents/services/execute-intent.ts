/**
 * ExecuteIntent: hands a committed intent to the engine with the deposit's transaction hash (mined or not)
 * or a gasless deposit signature. Repeats are harmless. A mined transaction that paid the intent address
 * nothing of the deposit token is refused naming `depositTransactionHash` (the engine checks it). Outcomes
 * by status:
 * - QUOTED: WrongStatusError (commit first);
 * - COMMITTED after its execute window: ExecuteWindowClosedError (a new quote and commit are needed);
 * - COMMITTED or EXECUTING: the engine is asked (idempotently) and the current status is returned;
 * - SUCCEEDED, FAILED, REFUNDED, ABORTED, INVALID: WrongStatusError carrying the status (the official
 *   client treats a repeat answered with status SUCCEEDED as success).
 */
import { ForeignDepositTransactionError } from '../../engine/errors.ts';
import { GaslessEntryConflictError } from '../../engine/gasless/index.ts';
import { InvalidInputError, SwitchyardError } from '../../internal/errors.ts';
import type { IntentRecord, IntentStatus } from '../../store/index.ts';
import {
  DepositSignatureRejectedError,
  DepositTransactionRejectedError,
  ExecuteWindowClosedError,
  IntentNotFoundError,
  WrongStatusError,
} from '../errors.ts';
import { verifyDepositSignature } from './gasless/index.ts';
import type { IntentServices, IntentServicesDeps } from './types.ts';

/** r, s, v: the only signature form an EOA owner produces (contract-wallet signatures are not supported). */
const SIGNATURE_65_BYTES = /^0x[0-9a-fA-F]{130}$/;

export function createExecuteIntent(deps: IntentServicesDeps, now: () => Date): IntentServices['execute'] {
  const { store, engine } = deps;
  return async (input, projectId) => {
    const { depositTransactionHash, depositSignature } = input;
    if (!depositTransactionHash && !depositSignature) {
      throw new InvalidInputError(
        'depositTransactionHash',
        'is required (or depositSignature for a gasless deposit)',
      );
    }
    if (depositSignature && !SIGNATURE_65_BYTES.test(depositSignature.intentSignature)) {
      throw new InvalidInputError('depositSignature.intentSignature', 'must be a 65-byte signature');
    }
    const intentId = input.intentId.toLowerCase();
    const record = await store.intents.get({ projectId, intentId });
    if (!record) throw new IntentNotFoundError(input.intentId);
    checkExecutable(record, now());
    if (depositSignature) {
      await verifyDepositSignature(deps, { projectId, record, signature: depositSignature });
    }
    let status: IntentStatus | undefined;
    try {
      status = await engine.requestExecution({
        intentId,
        intent: record,
        ...(depositTransactionHash && { depositTransactionHash: depositTransactionHash as `0x${string}` }),
        ...(depositSignature && { depositSignature }),
      });
    } catch (error) {
      throw rejectionOf(error, Boolean(depositSignature));
    }
    status ??= (await store.intents.get({ projectId, intentId }))?.status;
    return { intentId: record.intentId, intentStatus: status ?? record.status };
  };
}

/** The engine's refusals of what the caller sent, as refusals naming the field; anything else as is. */
function rejectionOf(error: unknown, gasless: boolean): unknown {
  if (error instanceof ForeignDepositTransactionError) {
    return new DepositTransactionRejectedError('depositTransactionHash', error.message);
  }
  if (error instanceof GaslessEntryConflictError) {
    return new DepositSignatureRejectedError(error.field, error.problem);
  }
  if (gasless && error instanceof SwitchyardError && !(error instanceof InvalidInputError)) {
    return new DepositSignatureRejectedError('depositSignature', error.message);
  }
  return error;
}

function checkExecutable(record: IntentRecord, at: Date): void {
  const { status } = record;
  if (status === 'EXECUTING') return;
  if (status === 'QUOTED') {
    throw new WrongStatusError(
      `intent ${record.intentId} is not committed: call CommitIntent before ExecuteIntent`,
      status,
    );
  }
  if (status !== 'COMMITTED') {
    throw new WrongStatusError(`intent ${record.intentId} has already finished: it is ${status}`, status);
  }
  if (record.executeDeadline && at.getTime() >= record.executeDeadline.getTime()) {
    throw new ExecuteWindowClosedError(record.intentId, record.executeDeadline, at);
  }
}
