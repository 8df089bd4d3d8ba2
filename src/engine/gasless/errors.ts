/** Engine-side gasless deposit conditions (the user-facing checks live in src/intents/services/gasless). */
import { SwitchyardError } from '../../internal/errors.ts';

/** requestExecution got a depositSignature that the intent services did not produce. */
export class GaslessDepositMalformedError extends SwitchyardError {
  override readonly name = 'GaslessDepositMalformedError';
}

/**
 * ExecuteIntent sent a deposit signature that differs from the one the intent already holds (verified and
 * stored by an earlier ExecuteIntent). `field` is the first differing member of the wire DepositSignature.
 */
export class GaslessEntryConflictError extends SwitchyardError {
  override readonly name = 'GaslessEntryConflictError';
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`, { details: { field } });
  }
}
