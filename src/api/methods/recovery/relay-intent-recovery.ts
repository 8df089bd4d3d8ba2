/** RelayIntentRecovery on the wire (Switchyard's gasless recovery): the relayer's transaction, once mined. */
import type { RecoveryServices } from '../../../intents/recovery/index.ts';
import type { Handler } from '../../context.ts';

export function createRelayIntentRecovery(recovery: RecoveryServices): Handler<'RelayIntentRecovery'> {
  return (input, ctx) => recovery.relay(input, ctx.projectId!);
}
