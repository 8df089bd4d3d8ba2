/** Engine-side gasless deposit conditions (the user-facing checks live in src/intents/services/gasless). */
import { SwitchyardError } from '../../internal/errors.ts';

/** requestExecution got a depositSignature that the intent services did not produce. */
export class GaslessDepositMalformedError extends SwitchyardError {
  override readonly name = 'GaslessDepositMalformedError';
}
