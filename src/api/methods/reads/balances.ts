/**
 * On-chain balances of an intent's two addresses (native currency and the intent's token on each
 * chain), for GetIntentHistory `includeBalances` / `onlyRecoverable`, each with its USD price and value
 * when the price source knows the token.
 */
import { createPublicClient, erc20Abi, http, type PublicClient, zeroAddress } from 'viem';
import { withChainErrors } from '../../../chains/map-chain-error.ts';
import { usdValue } from '../../../intents/plan/money.ts';
import type { ReceiptIntent } from '../../../store/index.ts';
import type { ApiDeps } from '../../context.ts';
import type { IntentHistory } from '../../schemas/receipt.ts';
import { tokenMetadata } from './to-wire.ts';

/**
 * A balance read that takes longer than this fails the request as Unavailable (retry later) rather than
 * stalling the page; a missing balance would read as "nothing to recover".
 */
const BALANCE_READ_TIMEOUT_MS = 3_000;

type IntentBalance = NonNullable<IntentHistory['balances']>[number];
type TokenBalance = IntentBalance['tokens'][number];

/** The native currency's decimals, for a token the configuration does not list (only native is read unlisted). */
const NATIVE_DECIMALS = 18;

export function createBalanceReader(deps: ApiDeps) {
  const clients = new Map<number, PublicClient>();
  const client = (chainId: number): PublicClient | undefined => {
    const chain = deps.chainById.get(chainId);
    if (!chain?.rpcUrls[0]) return undefined;
    let c = clients.get(chainId);
    if (!c) {
      c = createPublicClient({
        transport: http(chain.rpcUrls[0], { timeout: BALANCE_READ_TIMEOUT_MS }),
      }) as PublicClient;
      clients.set(chainId, c);
    }
    return c;
  };

  const readOne = async (chainId: number, holder: string, tokens: string[]): Promise<IntentBalance> => {
    const c = client(chainId);
    const out: IntentBalance = { intentAddress: holder, chainId, tokens: [] };
    if (!c) return out;
    for (const token of new Set(tokens.map((t) => t.toLowerCase()))) {
      const balance = await withChainErrors(
        () =>
          token === zeroAddress
            ? c.getBalance({ address: holder as `0x${string}` })
            : c.readContract({
                address: token as `0x${string}`,
                abi: erc20Abi,
                functionName: 'balanceOf',
                args: [holder as `0x${string}`],
              }),
        { chainId },
      );
      if (balance === 0n) continue;
      const meta = tokenMetadata(deps, chainId, token);
      const decimals = meta.decimals ?? NATIVE_DECIMALS;
      const entry: TokenBalance = {
        contractAddress: token,
        balance: balance.toString(),
        decimals,
        chainId,
        symbol: meta.symbol,
      };
      const priceUsd = await deps.prices?.getPriceUsd(chainId, token);
      if (priceUsd !== undefined) {
        // USD values are for display (the spec types them as strings); the amount stays exact in `balance`.
        entry.priceUsd = String(priceUsd);
        entry.balanceUsd = String(usdValue(balance, { decimals, priceUsd }));
      }
      out.tokens.push(entry);
    }
    return out;
  };

  return async (intent: ReceiptIntent): Promise<IntentBalance[]> => [
    await readOne(intent.originChainId, intent.originIntentAddress, [zeroAddress, intent.originTokenAddress]),
    await readOne(intent.destinationChainId, intent.destinationIntentAddress, [
      zeroAddress,
      intent.destinationTokenAddress,
    ]),
  ];
}
