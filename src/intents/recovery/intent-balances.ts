/**
 * GetIntentHistory's balances for a page of intents: what each intent's addresses hold on every configured
 * chain, read with the same scan as PrepareIntentRecovery (address-balances.ts; all the page's addresses in one
 * scan per chain), and whether any of it is recoverable now by the same rules (recoverable-balances.ts): all of
 * it, except a running intent's own deposit at an account that can still execute.
 */
import type { Address, PublicClient } from 'viem';
import type { ReceiptIntent, Store } from '../../store/index.ts';
import { type AddressBalance, type AddressBalanceDeps, createAddressBalances } from './address-balances.ts';
import { accountsOf } from './intent-accounts.ts';
import { classifyBalances, mayRun, readExecutable } from './recoverable-balances.ts';

export interface IntentBalances {
  /** The non-zero balances of the intent's addresses, on every configured chain. */
  balances: AddressBalance[];
  /** Whether the owner may recover some of them now (PrepareIntentRecovery would offer it). */
  recoverable: boolean;
}

export type ReadIntentBalances = (
  projectId: number,
  intents: readonly ReceiptIntent[],
) => Promise<Map<string, IntentBalances>>;

export function createIntentBalances(
  deps: AddressBalanceDeps & { store: Pick<Store, 'intents'> },
): ReadIntentBalances {
  const readBalances = createAddressBalances(deps);
  return async (projectId, intents) => {
    const found = await readBalances(intents.flatMap(addressesOf));
    const out = new Map<string, IntentBalances>();
    for (const intent of intents) {
      const [origin, destination] = addressesOf(intent).map((a) => a.toLowerCase());
      const balances = found.filter((b) => [origin, destination].includes(b.holder.toLowerCase()));
      const recoverable = await anyRecoverable(deps, projectId, intent, balances);
      out.set(intent.intentId, { balances, recoverable });
    }
    return out;
  };
}

const addressesOf = (intent: ReceiptIntent): Address[] => [
  intent.originIntentAddress as Address,
  intent.destinationIntentAddress as Address,
];

/**
 * Only a running intent can hold something back, and only its own deposit: its stored plan says which
 * balance that is. A running intent stored without a plan cannot be recovered (PrepareIntentRecovery needs
 * the plan), so none of its balances count. Its accounts are read after the balances, and only when it holds
 * some: a page of intents waiting for their deposits costs no reads of their accounts. So a deposit its intent
 * takes between the two reads can show as recoverable until the page is read again; PrepareIntentRecovery,
 * which reads the accounts first (recoverable-balances.ts), does not offer it.
 */
async function anyRecoverable(
  deps: { clients: ReadonlyMap<number, PublicClient>; store: Pick<Store, 'intents'> },
  projectId: number,
  intent: ReceiptIntent,
  balances: readonly AddressBalance[],
): Promise<boolean> {
  if (balances.length === 0) return false;
  if (!mayRun(intent.status)) return true;
  const record = await deps.store.intents.get({ projectId, intentId: intent.intentId });
  const accounts = record && accountsOf(record);
  if (!record || !accounts) return false;
  const executable = await readExecutable(deps.clients, accounts);
  return classifyBalances({ record, accounts }, accounts, balances, executable).recoverable.length > 0;
}
