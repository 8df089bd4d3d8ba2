/**
 * What addresses hold on every configured chain: the native currency, every listed token and, when named, one
 * more token (a wrong token sent by mistake). One BalanceScan per chain reads every address and token at once
 * (src/contracts/balance-scan.ts), all chains side by side. Only non-zero balances are answered, each with its
 * symbol, decimals and, when priced, USD value. The one read behind PrepareIntentRecovery and GetIntentHistory's
 * balances, so both find a deposit wherever it landed.
 */
import { type Address, erc20Abi, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { ChainRpcError } from '../../chains/errors.ts';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import { type BalanceScan, createBalanceScan } from '../../contracts/balance-scan.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import { usdValue } from '../plan/money.ts';
import type { IntentPrices } from '../services/types.ts';

export interface AddressBalance {
  chainId: number;
  holder: Address;
  /** Zero address = native. */
  token: Address;
  amount: bigint;
  symbol: string;
  decimals: number;
  priceUsd?: number | undefined;
  valueUsd?: number | undefined;
}

export interface AddressBalanceDeps {
  chains: readonly ChainConfig[];
  /** A read client per configured chain id; a chain without one is not read. */
  clients: ReadonlyMap<number, PublicClient>;
  prices?: IntentPrices | undefined;
}

export type ReadAddressBalances = (
  holders: readonly Address[],
  extraToken?: Address,
) => Promise<AddressBalance[]>;

export function createAddressBalances(deps: AddressBalanceDeps): ReadAddressBalances {
  const scan = createBalanceScan();
  return async (holders, extraToken) => {
    const unique = holders.filter((h, i) => holders.findIndex((o) => isAddressEqual(o, h)) === i);
    if (unique.length === 0) return [];
    const perChain = await Promise.all(
      deps.chains.map((chain) => readChain(deps, scan, chain, unique, extraToken)),
    );
    return perChain.flat();
  };
}

interface TokenToRead {
  address: Address;
  symbol: string;
  decimals: number;
  listed: boolean;
}

async function readChain(
  deps: AddressBalanceDeps,
  scan: BalanceScan,
  chain: ChainConfig,
  holders: readonly Address[],
  extraToken: Address | undefined,
): Promise<AddressBalance[]> {
  const client = deps.clients.get(chain.chainId);
  if (!client) return [];
  const { chainId } = chain;
  const tokens = tokensOf(chain, extraToken);
  const scanned = await withChainErrors(
    () =>
      scan(
        client,
        holders,
        tokens.map((t) => t.address),
      ),
    { chainId },
  );
  const out: AddressBalance[] = [];
  for (const [h, holder] of holders.entries()) {
    for (const [t, token] of tokens.entries()) {
      const amount = scanned[h]![t];
      if (amount === undefined && token.listed) {
        // A listed token must answer: a missing balance would read as "nothing to recover".
        throw new ChainRpcError(
          `chain ${chainId}: the listed token ${token.symbol} ${token.address} answered no balanceOf(${holder})`,
          { details: { chainId, token: token.address } },
        );
      }
      // An unlisted token that is no ERC-20 on this chain holds nothing here.
      if (!amount) continue;
      const meta = token.listed ? token : await unlistedMetadata(client, token.address);
      const priceUsd = await deps.prices?.getPriceUsd(chainId, token.address);
      out.push({
        chainId,
        holder,
        token: token.address,
        amount,
        symbol: meta.symbol,
        decimals: meta.decimals,
        ...(priceUsd !== undefined && {
          priceUsd,
          valueUsd: usdValue(amount, { decimals: meta.decimals, priceUsd }),
        }),
      });
    }
  }
  return out;
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
