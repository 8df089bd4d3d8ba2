/** RetryIntent on the wire: a FAILED intent runs again with its replacement deposit; answers the status. */
import type { RecoveryServices } from '../../../intents/recovery/index.ts';
import type { Handler } from '../../context.ts';

export function createRetryIntent(recovery: RecoveryServices): Handler<'RetryIntent'> {
  return (input, ctx) => recovery.retry(input, ctx.projectId!);
}
