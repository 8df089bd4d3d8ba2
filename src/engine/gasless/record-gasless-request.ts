/**
 * ExecuteIntent with a verified depositSignature: the deposit row (PENDING, from the owner) carries the
 * entry. The tokens move later, inside the origin execution the relayer pays for.
 */
import type { IntentRecord, Store } from '../../store/types.ts';
import { writeRow } from '../receipts.ts';
import type { DepositIntentEntry } from './deposit-intent-entry.ts';

export async function recordGaslessRequest(
  store: Store,
  intent: IntentRecord,
  entry: DepositIntentEntry,
): Promise<void> {
  await writeRow(store, intent.intentId, 'deposit', {
    chainId: intent.originChainId,
    status: 'PENDING',
    fromAddress: intent.ownerAddress,
    toAddress: intent.originIntentAddress,
    meta: { depositIntentEntry: entry },
  });
}
