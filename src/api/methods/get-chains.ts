/**
 * GetChains: the configured chains, each in both the flat (0.9.4) and nested (0.18.4) form.
 *
 * Explorer links (`blockExplorerUrl`, `blockExplorer.url`; clients open `<url>/tx/<hash>`): a chain's
 * configured `explorerUrl`; for a chain that has none of its own (`servedExplorer`, the devnet's), the
 * transaction view of the explorer this API serves, `<API URL>/explorer/chains/<chainId>`, known once the
 * server listens.
 *
 * `routeProvider` filter — how the enum maps onto Switchyard's providers:
 * AUTO → every chain; SWITCHYARD → chains with our settlers (cross-chain transfers); UNISWAP_V2 and
 * SUSHI → chains with a Uniswap-V2-style router; UNISWAP_V3 → chains with a V3 factory and SwapRouter02;
 * WETH → chains with a WETH contract; CCTP, GASZIP, HYPERLANE, LIFI, LZ_OFT, LZ_TRANSFER, OIF, RELAY,
 * SOMNIA_EXCHANGE, SOMNIA_SWAP, ZEROX → no chain (no such provider is configured); anything else →
 * InvalidArgument.
 */
import { EXPLORER_CHAINS_PATH } from '../../explorer/constants.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { ApiDeps, Handler } from '../context.ts';
import { InvalidArgumentError } from '../errors/rpc-errors.ts';
import type { ChainInfo } from '../schemas/catalogue.ts';
import { ROUTE_PROVIDERS } from '../schemas/enums.ts';

type Provider = (typeof ROUTE_PROVIDERS)[number];

const SERVES: Record<Provider, (chain: ChainConfig) => boolean> = {
  AUTO: () => true,
  SWITCHYARD: (c) => Boolean(c.contracts.originSettler && c.contracts.destinationSettler),
  UNISWAP_V2: (c) => Boolean(c.contracts.uniswapV2Router),
  UNISWAP_V3: (c) => Boolean(c.contracts.uniswapV3Factory && c.contracts.uniswapSwapRouter02),
  SUSHI: (c) => Boolean(c.contracts.uniswapV2Router),
  WETH: (c) => Boolean(c.contracts.weth),
  CCTP: () => false,
  GASZIP: () => false,
  HYPERLANE: () => false,
  LIFI: () => false,
  LZ_OFT: () => false,
  LZ_TRANSFER: () => false,
  // Our settlers' orders are refunded like OIF orders (BuildOIFRefundTransaction), but OIF names the
  // Open Intents Framework's own settlers, which no chain here has.
  OIF: () => false,
  RELAY: () => false,
  SOMNIA_EXCHANGE: () => false,
  SOMNIA_SWAP: () => false,
  ZEROX: () => false,
};

export function createGetChains(deps: ApiDeps): Handler<'GetChains'> {
  // Built on the first call, once the server listens (a served explorer's links need its URL).
  let all: ChainInfo[] | undefined;
  const info = (chain: ChainConfig) => toChainInfo(chain, explorerLink(chain, deps.publicUrl?.()));
  return ({ routeProvider }) => {
    if (routeProvider === undefined || routeProvider === '') {
      all ??= deps.chains.map(info);
      return { chains: all };
    }
    const provider = routeProvider.toUpperCase();
    if (!(ROUTE_PROVIDERS as readonly string[]).includes(provider)) {
      throw new InvalidArgumentError('routeProvider', `must be one of ${ROUTE_PROVIDERS.join(', ')}`);
    }
    const serves = SERVES[provider as Provider];
    return { chains: deps.chains.filter(serves).map(info) };
  };
}

function explorerLink(chain: ChainConfig, publicUrl: string | undefined): string | undefined {
  if (chain.explorerUrl) return chain.explorerUrl;
  if (chain.servedExplorer && publicUrl) return `${publicUrl}${EXPLORER_CHAINS_PATH}/${chain.chainId}`;
  return undefined;
}

export function toChainInfo(chain: ChainConfig, explorerUrl: string | undefined): ChainInfo {
  const info: ChainInfo = {
    id: chain.chainId,
    name: chain.name,
    tokenName: chain.nativeCurrency.name,
    tokenSymbol: chain.nativeCurrency.symbol,
    tokenDecimals: chain.nativeCurrency.decimals,
    isTestnet: chain.isTestnet,
    supportsBridging: SERVES.SWITCHYARD(chain),
    nativeCurrency: { ...chain.nativeCurrency },
  };
  if (chain.logoUri) info.logoUri = chain.logoUri;
  if (explorerUrl) {
    info.blockExplorerUrl = explorerUrl;
    info.blockExplorer = { name: `${chain.name} explorer`, url: explorerUrl };
  }
  return info;
}
