/** BuildIntentRecoveryTransaction on the wire: the checked recovery as a transaction anyone can send. */
import type { RecoveryServices } from '../../../intents/recovery/index.ts';
import type { Handler } from '../../context.ts';

export function createBuildIntentRecoveryTransaction(
  recovery: RecoveryServices,
): Handler<'BuildIntentRecoveryTransaction'> {
  return (input, ctx) => recovery.buildTransaction(input, ctx.projectId!);
}
