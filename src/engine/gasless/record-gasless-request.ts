/**
 * ExecuteIntent with a verified depositSignature: the deposit row (PENDING, from the owner) carries the
 * entry. The tokens move later, inside the origin execution the relayer pays for.
 *
 * The first entry stored is the one relayed, and it is never replaced: a repeat with the same entry is a
 * no-op, a different one is refused (GaslessEntryConflictError). Otherwise anyone holding the project key
 * who read the signature could swap in a broken permit and make every origin attempt fail.
 */
import type { IntentRecord, Store } from '../../store/types.ts';
import {
  type DepositIntentEntry,
  differingEntryField,
  readDepositIntentEntry,
} from './deposit-intent-entry.ts';
import { GaslessEntryConflictError } from './errors.ts';

export async function recordGaslessRequest(
  store: Store,
  intent: IntentRecord,
  entry: DepositIntentEntry,
): Promise<void> {
  const written = await store.transactions.advance({
    intentId: intent.intentId,
    kind: 'deposit',
    chainId: intent.originChainId,
    status: 'PENDING',
    fromAddress: intent.ownerAddress,
    toAddress: intent.originIntentAddress,
    meta: { depositIntentEntry: entry },
    from: ['UNKNOWN', 'PENDING'],
    onlyWithoutMeta: true,
  });
  if (written) return;
  // Not written: an entry is there already, or the deposit was counted (a transfer) before this call.
  const stored = await readDepositIntentEntry(store, intent.intentId);
  const field = stored && differingEntryField(stored, entry);
  if (field) {
    throw new GaslessEntryConflictError(
      field,
      `differs from the deposit signature intent ${intent.intentId} already holds; a repeat must send the same one`,
    );
  }
}
