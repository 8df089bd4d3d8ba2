/**
 * Which of an intent's balances (address-balances.ts: every configured chain, every listed token, and any token
 * the caller names) its owner may recover now. The intent's own deposit, at an account that can still execute
 * on its chain, is held back while the service may run it (COMMITTED, EXECUTING): recovering it would break a
 * running intent. Otherwise (never committed, failed) it is recoverable by cancelling the intent first.
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
  const found = await deps.readBalances(
    accounts.map((a) => a.address),
    extraToken,
  );
  return classifyBalances(deps.clients, loaded, accounts, found);
}

/** Sorts the balances of the intent's accounts into what the owner may recover now and what is held back. */
export async function classifyBalances(
  clients: ReadonlyMap<number, PublicClient>,
  loaded: LoadedIntent,
  accounts: readonly IntentAccount[],
  found: readonly AddressBalance[],
): Promise<Balances> {
  const out: Balances = { recoverable: [], heldBack: [] };
  const executable = new Map<IntentAccount, Promise<boolean>>();
  for (const balance of found) {
    const account = accounts.find((a) => isAddressEqual(a.address, balance.holder));
    if (!account) continue;
    const isOwnDeposit =
      BigInt(balance.chainId) === account.intent.chainId &&
      isAddressEqual(balance.token, account.intent.depositToken);
    // Balances come only from chains with a client; the account's state is read once.
    if (isOwnDeposit && !executable.has(account)) {
      executable.set(account, canExecute(clients.get(balance.chainId)!, account));
    }
    const isDeposit = isOwnDeposit && (await executable.get(account)!);
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
