/** The events subsystem's conditions (the event log's readers, the webhook endpoints' settings). */
import { SwitchyardError } from '../internal/errors.ts';

/** An event type pattern that names no event (`--events`). */
export class InvalidEventTypesError extends SwitchyardError {
  override readonly name = 'InvalidEventTypesError';
  constructor(
    readonly pattern: string,
    problem: string,
  ) {
    super(`--events: '${pattern}' ${problem}`, { details: { pattern } });
  }
}
