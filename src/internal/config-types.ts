/**
 * The shape of Switchyard's resolved configuration: one typed object, built once at start-up
 * (defaults ← environment ← config file ← CLI flags) and passed to every factory.
 */
import type { KeyObject } from 'node:crypto';
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
  /**
   * The solver's low-water mark for this token on this chain (base units): while what it holds, less what
   * open orders hold, is below it, the logs warn and RuntimeStatus marks the chain degraded.
   */
  lowWaterMark?: bigint;
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
  /** Uniswap V3: the canonical factory (pool addresses are derived from it and the pool init-code hash). */
  uniswapV3Factory?: Address;
  /** TickLens: a pool's initialized ticks one bitmap word per read (without it, the pool's own bitmap). */
  uniswapV3TickLens?: Address;
  uniswapV3QuoterV2?: Address;
  uniswapV3PositionManager?: Address;
  /** SwapRouter02: executes V3 paths, and every route that splits an order across pools (V2 pairs too). */
  uniswapSwapRouter02?: Address;
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
  /** The chain's block explorer; GetChains links to it (`<explorerUrl>/tx/<hash>`). */
  explorerUrl?: string;
  /**
   * The chain has no block explorer of its own: GetChains links to the transaction view of the explorer this
   * API serves (`<api>/explorer/chains/<chainId>`). The devnet's chains set it.
   */
  servedExplorer?: boolean;
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
  /**
   * The most any operator transaction may pay per gas on this chain, in wei (`maxFeePerGasGwei` in the
   * config file). A transaction the chain would not include under it waits, and nothing is ever signed
   * above it (docs/engine.md "Fees"). Absent: no ceiling.
   */
  maxFeePerGasWei?: bigint;
  tokens: TokenConfig[];
  contracts: SwitchyardContracts & ExternalContracts;
  /**
   * Yield markets on this chain. Contracts whose name ends in `Vault` (the devnet's `usdcVault`, `daiVault`)
   * are listed too, with the defaults; an entry here for the same vault overrides them.
   */
  yieldMarkets?: YieldMarketConfig[];
}

/** Where the Prometheus listener (`GET /metrics`) listens; port 0 takes any free port. */
export interface MetricsListenConfig {
  host: string;
  port: number;
  /**
   * Set on the default listener (nobody chose the port): when another process holds it, this one starts
   * without metrics and warns, instead of refusing to start.
   */
  skipIfTaken?: boolean;
}

export interface SwitchyardConfig {
  host: string;
  port: number;
  dataDir: string;
  /** postgres://… for PostgreSQL; absent means SQLite in `dataDir`. */
  databaseUrl?: string;
  /** Statement connections per process on PostgreSQL, filled one at a time (transactions and LISTEN have their own); default POOL_MAX_CONNECTIONS (src/store/open-postgres.ts, 4). */
  databasePoolSize?: number;
  /**
   * How long a worker's step stays leased without its heartbeat (ms): a crashed worker's steps are taken over
   * this long after its last renewal. Default STEP_LEASE_MS (src/engine/constants.ts, 10 s).
   */
  stepLeaseMs?: number;
  role: 'api' | 'worker' | 'all';
  chains: ChainConfig[];
  /** Static USD prices `{ "<chainId>:<address>": usd }` for chains not priced from pools (src/pricing). */
  prices?: Record<string, number>;
  /**
   * The Prometheus listener (docs/metrics.md). Absent: no listener and no metrics are kept. `switchyard serve`
   * and `switchyard start` set it (default 127.0.0.1:9464) unless the config file says `"metrics": false`.
   */
  metrics?: MetricsListenConfig;
  webhooks?: WebhooksConfig;
  /**
   * WEBHOOK_SECRETS_KEY (environment only): webhook signing secrets are stored encrypted with it
   * (AES-256-GCM). Absent: they are stored plain, and an encrypted one cannot be read (docs/webhooks.md).
   */
  webhookSecretsKey?: KeyObject;
  /**
   * WEBHOOK_SECRETS_PREVIOUS_KEY (environment only, and only beside `webhookSecretsKey`): the key being
   * rotated out. It only decrypts, so secrets not yet re-encrypted still sign (docs/webhooks.md).
   */
  webhookSecretsPreviousKey?: KeyObject;
}

export interface WebhooksConfig {
  /**
   * Deliver to loopback and private-range addresses (src/webhooks/target-guard.ts). Off unless set: an
   * endpoint must not reach into the network the service runs in. The devnet turns it on.
   */
  allowPrivateTargets: boolean;
}
