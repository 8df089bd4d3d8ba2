/**
 * What an intent's addresses hold that its owner may recover now, on every configured chain: the native
 * currency, every listed token and any token the caller names (a wrong token sent by mistake). The intent's
 * own deposit, at an account that can still execute on its chain, is held back while the service may run it
 * (COMMITTED, EXECUTING): recovering it would break a running intent. Otherwise (never committed, failed) it
 * is recoverable by cancelling the intent first.
 */
import { type Address, erc20Abi, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { balanceAt, chainNow, readAccountState } from '../../engine/chain-reads.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { IntentStatus } from '../../store/index.ts';
import { usdValue } from '../plan/money.ts';
import type { IntentAccount, LoadedIntent } from './intent-accounts.ts';
import type { RecoverableBalance, RecoveryDeps } from './types.ts';

/** Statuses in which the service may still run an intent whose account can execute. */
const RUNNING: readonly IntentStatus[] = ['COMMITTED', 'EXECUTING'];

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
  deps: Pick<RecoveryDeps, 'chains' | 'clients' | 'prices'>,
  loaded: LoadedIntent,
  accounts: readonly IntentAccount[],
  extraToken?: Address,
): Promise<Balances> {
  const out: Balances = { recoverable: [], heldBack: [] };
  const perChain = await Promise.all(
    deps.chains.flatMap((chain) =>
      accounts.map((account) => readAccountOnChain(deps, loaded, chain, account, extraToken)),
    ),
  );
  for (const part of perChain) {
    out.recoverable.push(...part.recoverable);
    out.heldBack.push(...part.heldBack);
  }
  return out;
}

async function readAccountOnChain(
  deps: Pick<RecoveryDeps, 'clients' | 'prices'>,
  loaded: LoadedIntent,
  chain: ChainConfig,
  account: IntentAccount,
  extraToken: Address | undefined,
): Promise<Balances> {
  const out: Balances = { recoverable: [], heldBack: [] };
  const client = deps.clients.get(chain.chainId);
  if (!client) return out;
  const executable = await canExecuteHere(client, chain, account);
  for (const token of tokensOf(chain, extraToken)) {
    const amount = await readBalance(client, token.address, account.address, token.listed);
    if (amount === 0n) continue;
    const isDeposit = executable && isAddressEqual(token.address, account.intent.depositToken);
    if (isDeposit && RUNNING.includes(loaded.record.status)) {
      out.heldBack.push({
        chainId: chain.chainId,
        intentAddress: account.address,
        token: token.address,
        amount,
        deadline: account.intent.deadline,
      });
      continue;
    }
    const meta = token.listed ? token : await unlistedMetadata(client, token.address);
    const priceUsd = await deps.prices.getPriceUsd(chain.chainId, token.address);
    out.recoverable.push({
      chainId: chain.chainId,
      intentAddress: account.address,
      source: account.source,
      token: token.address,
      amount,
      symbol: meta.symbol,
      decimals: meta.decimals,
      ...(priceUsd !== undefined && {
        priceUsd,
        valueUsd: usdValue(amount, { decimals: meta.decimals, priceUsd }),
      }),
      cancelIntent: isDeposit,
    });
  }
  return out;
}

/** Whether the account could still execute on this chain: its own chain, never run or cancelled, in time. */
async function canExecuteHere(
  client: PublicClient,
  chain: ChainConfig,
  account: IntentAccount,
): Promise<boolean> {
  if (BigInt(chain.chainId) !== account.intent.chainId) return false;
  const [state, now] = await Promise.all([readAccountState(client, account.address), chainNow(client)]);
  return state === 'none' && now < account.intent.deadline;
}

interface TokenToRead {
  address: Address;
  symbol: string;
  decimals: number;
  listed: boolean;
}

function tokensOf(chain: ChainConfig, extra: Address | undefined): TokenToRead[] {
  const tokens: TokenToRead[] = [
    {
      address: zeroAddress,
      symbol: chain.nativeCurrency.symbol,
      decimals: chain.nativeCurrency.decimals,
      listed: true,
    },
  ];
  for (const t of chain.tokens) {
    if (t.address === zeroAddress) continue;
    tokens.push({ address: t.address, symbol: t.symbol, decimals: t.decimals, listed: true });
  }
  if (extra && !tokens.some((t) => isAddressEqual(t.address, extra))) {
    tokens.push({ address: extra, symbol: '', decimals: 0, listed: false });
  }
  return tokens;
}

/** A listed token's balance; an unlisted one that is no ERC-20 on this chain holds nothing here. */
async function readBalance(client: PublicClient, token: Address, holder: Address, listed: boolean) {
  if (listed) return balanceAt(client, token, holder);
  return balanceAt(client, token, holder).catch(() => 0n);
}

async function unlistedMetadata(
  client: PublicClient,
  token: Address,
): Promise<{ symbol: string; decimals: number }> {
  const [symbol, decimals] = await Promise.all([
    client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }).catch(() => ''),
    client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).catch(() => 0),
  ]);
  return { symbol, decimals };
}
