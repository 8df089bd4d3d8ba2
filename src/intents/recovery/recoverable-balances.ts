/**
 * Which of an intent's balances (address-balances.ts: every configured chain, every listed token, and any token
 * the caller names) its owner may recover now. The intent's own deposit, at an account that can still execute
 * on its chain, is held back while the service may run it (COMMITTED, EXECUTING): recovering it would break a
 * running intent. Otherwise (never committed, failed) it is recoverable by cancelling the intent first.
 *
 * The accounts' states are read before their balances. An account that executes between the two reads then
 * shows its deposit gone; read the other way round, a deposit being taken by its intent looked like a balance
 * the owner could recover (the account had executed, so it was no longer the intent's deposit).
 */
import { type Address, isAddressEqual, type PublicClient } from 'viem';
import { chainNow, readAccountState } from '../../engine/chain-reads.ts';
import type { IntentStatus } from '../../store/index.ts';
import type { AddressBalance, ReadAddressBalances } from './address-balances.ts';
import type { IntentAccount, LoadedIntent } from './intent-accounts.ts';
import type { RecoverableBalance } from './types.ts';

/** Statuses in which the service may still run an intent whose account can execute. */
const RUNNING: readonly IntentStatus[] = ['COMMITTED', 'EXECUTING'];

/** Whether the service may still run an intent in this status (so its deposit may be held back). */
export const mayRun = (status: IntentStatus): boolean => RUNNING.includes(status);

export interface HeldBack {
  chainId: number;
  intentAddress: Address;
  token: Address;
  amount: bigint;
  /** The origin (or destination) deadline, chain seconds, after which it is returned or recoverable. */
  deadline: bigint;
}

export interface Balances {
  recoverable: RecoverableBalance[];
  heldBack: HeldBack[];
}

export async function readRecoverableBalances(
  deps: { clients: ReadonlyMap<number, PublicClient>; readBalances: ReadAddressBalances },
  loaded: LoadedIntent,
  accounts: readonly IntentAccount[],
  extraToken?: Address,
): Promise<Balances> {
  const executable = await readExecutable(deps.clients, accounts);
  const found = await deps.readBalances(
    accounts.map((a) => a.address),
    extraToken,
  );
  return classifyBalances(loaded, accounts, found, executable);
}

/** Which accounts could still execute on their own chain; read before their balances (see above). */
export async function readExecutable(
  clients: ReadonlyMap<number, PublicClient>,
  accounts: readonly IntentAccount[],
): Promise<ReadonlySet<IntentAccount>> {
  const out = new Set<IntentAccount>();
  await Promise.all(
    accounts.map(async (account) => {
      const client = clients.get(Number(account.intent.chainId));
      if (client && (await canExecute(client, account))) out.add(account);
    }),
  );
  return out;
}

/**
 * Sorts the balances of the intent's accounts into what the owner may recover now and what is held back;
 * `executable` (readExecutable) was read before the balances.
 */
export function classifyBalances(
  loaded: LoadedIntent,
  accounts: readonly IntentAccount[],
  found: readonly AddressBalance[],
  executable: ReadonlySet<IntentAccount>,
): Balances {
  const out: Balances = { recoverable: [], heldBack: [] };
  for (const balance of found) {
    const account = accounts.find((a) => isAddressEqual(a.address, balance.holder));
    if (!account) continue;
    const isOwnDeposit =
      BigInt(balance.chainId) === account.intent.chainId &&
      isAddressEqual(balance.token, account.intent.depositToken);
    const isDeposit = isOwnDeposit && executable.has(account);
    if (isDeposit && mayRun(loaded.record.status)) {
      out.heldBack.push({
        chainId: balance.chainId,
        intentAddress: account.address,
        token: balance.token,
        amount: balance.amount,
        deadline: account.intent.deadline,
      });
      continue;
    }
    const { holder: _holder, ...rest } = balance;
    out.recoverable.push({
      ...rest,
      intentAddress: account.address,
      source: account.source,
      cancelIntent: isDeposit,
    });
  }
  return out;
}

/** Whether the account could still execute on its own chain: never run or cancelled, and in time. */
async function canExecute(client: PublicClient, account: IntentAccount): Promise<boolean> {
  const [state, now] = await Promise.all([readAccountState(client, account.address), chainNow(client)]);
  return state === 'none' && now < account.intent.deadline;
}
