/**
 * The shape of Switchyard's resolved configuration: one typed object, built once at start-up
 * (defaults ← environment ← config file ← CLI flags) and passed to every factory.
 */
import type { Address } from 'viem';

export interface TokenConfig {
  symbol: string;
  name: string;
  /** Zero address for the chain's native currency. */
  address: Address;
  decimals: number;
  logoUri?: string;
  featured?: boolean;
  supportsBridging?: boolean;
  /** Set for the token that prices are quoted against on this chain (the devnet's USD stable). */
  isUsdReference?: boolean;
}

/** Addresses of Switchyard's own contracts; identical on every chain (CREATE2). */
export interface SwitchyardContracts {
  intentFactory: Address;
  intentAccountImplementation: Address;
  originSettler: Address;
  destinationSettler: Address;
  fillVerifier: Address;
}

/** Third-party contracts a chain offers (DEX routers, WETH). */
export interface ExternalContracts {
  weth?: Address;
  uniswapV2Factory?: Address;
  uniswapV2Router?: Address;
  [name: string]: Address | undefined;
}

/** An ERC-4626 vault listed by YieldGetMarkets (src/yield). */
export interface YieldMarketConfig {
  vault: Address;
  /** Protocol identifier shown as `providerId` and used by the `provider` filter; default `erc4626`. */
  providerId?: string;
  /** Market category; default `vault`. */
  type?: 'vault' | 'lending';
  /** Display name; default the vault share token's own `name()`. */
  name?: string;
}

export interface ChainConfig {
  chainId: number;
  name: string;
  rpcUrls: string[];
  explorerUrl?: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  isTestnet: boolean;
  logoUri?: string;
  /** Blocks a deposit must be buried under before it counts. */
  confirmations: number;
  /**
   * Send the destination execution unsimulated right behind the fill, while the fill is still in the pool,
   * so both land in one block (docs/engine.md "The destination execution behind the fill"). Losing the race
   * costs one reverted execution's gas. Absent means off: the execution waits for the fill to be mined, the
   * safe choice for a chain with a public mempool. The devnet turns it on.
   */
  destinationBehindFill?: boolean;
  /**
   * Most JSON-RPC requests the engine sends to this chain in one HTTP request: the requests it issues within
   * the same millisecond go out as one JSON-RPC batch (docs/engine.md "JSON-RPC batches"). 1, or absent,
   * sends each alone: some hosted endpoints refuse batches or cap their size. Quotes never batch (the
   * batch's 1 ms gathering wait would add to every read a quote waits for). The devnet uses 32.
   */
  rpcBatchSize?: number;
  tokens: TokenConfig[];
  contracts: SwitchyardContracts & ExternalContracts;
  /**
   * Yield markets on this chain. Contracts whose name ends in `Vault` (the devnet's `usdcVault`, `daiVault`)
   * are listed too, with the defaults; an entry here for the same vault overrides them.
   */
  yieldMarkets?: YieldMarketConfig[];
}

export interface SwitchyardConfig {
  host: string;
  port: number;
  dataDir: string;
  /** postgres://… for PostgreSQL; absent means SQLite in `dataDir`. */
  databaseUrl?: string;
  role: 'api' | 'worker' | 'all';
  chains: ChainConfig[];
  /** Static USD prices `{ "<chainId>:<address>": usd }` for chains not priced from pools (src/pricing). */
  prices?: Record<string, number>;
  webhooks?: WebhooksConfig;
}

export interface WebhooksConfig {
  /**
   * Deliver to loopback and private-range addresses (src/webhooks/target-guard.ts). Off unless set: an
   * endpoint must not reach into the network the service runs in. The devnet turns it on.
   */
  allowPrivateTargets: boolean;
}
