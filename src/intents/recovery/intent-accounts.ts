/**
 * The intent's accounts a recovery can apply to: the origin account and, for a cross-chain route, the
 * destination account, each with the committed intent its address commits to (from the stored plan).
 */
import { type Address, isAddressEqual } from 'viem';
import type { Intent } from '../../contracts/types.ts';
import type { IntentRecord } from '../../store/index.ts';
import { decodePlan } from '../plan-codec.ts';
import { RecoveryInputError, RecoveryIntentNotFoundError, RecoveryStatusError } from './errors.ts';
import type { IntentSource, RecoveryDeps } from './types.ts';

export interface IntentAccount {
  source: IntentSource;
  address: Address;
  intent: Intent;
}

export interface LoadedIntent {
  record: IntentRecord;
  accounts: IntentAccount[];
}

/** The caller's intent and its accounts; RecoveryIntentNotFoundError in another project or none. */
export async function loadIntent(
  deps: Pick<RecoveryDeps, 'store'>,
  projectId: number,
  rawId: string,
): Promise<LoadedIntent> {
  const record = await deps.store.intents.get({ projectId, intentId: rawId.toLowerCase() });
  if (!record) throw new RecoveryIntentNotFoundError(rawId);
  const accounts = accountsOf(record);
  if (!accounts) {
    throw new RecoveryStatusError(
      `intent ${record.intentId} has no stored plan: its accounts cannot be known`,
      record.status,
    );
  }
  return { record, accounts };
}

/** The intent's accounts from its stored plan; undefined when it was stored without one. */
export function accountsOf(record: IntentRecord): IntentAccount[] | undefined {
  if (!record.planJson) return undefined;
  const plan = decodePlan(record.planJson);
  const accounts: IntentAccount[] = [
    { source: 'origin', address: plan.origin.address, intent: plan.origin.intent },
  ];
  if (plan.destination && !isAddressEqual(plan.destination.address, plan.origin.address)) {
    accounts.push({
      source: 'destination',
      address: plan.destination.address,
      intent: plan.destination.intent,
    });
  }
  return accounts;
}

/** The account at `address`, or a RecoveryInputError on `field` listing the intent's addresses. */
export function accountAt(loaded: LoadedIntent, address: string, field: string): IntentAccount {
  const found = loaded.accounts.find((a) => isAddressEqual(a.address, address as Address));
  if (found) return found;
  const known = loaded.accounts.map((a) => `${a.source} ${a.address}`).join(', ');
  throw new RecoveryInputError(
    field,
    `${address} is not an address of intent ${loaded.record.intentId} (its addresses: ${known})`,
  );
}
