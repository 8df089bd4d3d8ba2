/**
 * The fixed facts of the local devnet: which chains, which ports, which roles, how much of what.
 * Everything here is public test material; nothing in this file may ever hold a production secret.
 */
import { parseEther, parseUnits } from 'viem';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../intents/plan/constants.ts';

export interface DevnetChainSpec {
  chainId: number;
  name: string;
  /** ERC-4626 vaults (AccruingVault: yield accrues on-chain) deployed on this chain. */
  vaults: readonly DevnetVaultSpec[];
}

/** Chain ids in a range no public network uses (checked against chainlist), so wallets never confuse them. */
export const DEVNET_CHAINS: readonly DevnetChainSpec[] = [
  { chainId: 7_770_001, name: 'Switchyard Alpha', vaults: [{ asset: 'USDC', apyBps: 500 }] },
  { chainId: 7_770_002, name: 'Switchyard Beta', vaults: [{ asset: 'DAI', apyBps: 400 }] },
  {
    chainId: 7_770_003,
    name: 'Switchyard Gamma',
    vaults: [
      { asset: 'USDC', apyBps: 800 },
      { asset: 'DAI', apyBps: 300 },
    ],
  },
];

/** Chain i listens on basePort + i; 18545 keeps clear of the 8545 that other local nodes default to. */
export const DEFAULT_BASE_PORT = 18_545;
export const DEVNET_HOST = '127.0.0.1';
export const DEFAULT_API_URL = 'http://127.0.0.1:8787';
export const DEFAULT_DATA_DIR = './.switchyard';
export const CHAINS_DIR_NAME = 'chains';

/** anvil also writes its state every 5 s, so a hard kill (SIGKILL, power loss) loses at most 5 s of activity. */
export const STATE_INTERVAL_SECONDS = 5;
/**
 * Past blocks whose state each devnet chain keeps for calls (anvil `--prune-history`): enough for any
 * confirmation depth and the yield tracker's walk back; with full history anvil 1.7.1 spends more on each
 * block than the last (about 1 ms a block after 3,000 blocks, and its state dumps grow too), with 256 the
 * cost stays flat and a chain stays under ~400 MB (docs/devnet.md, "Kept history").
 */
export const DEVNET_KEPT_STATES = 256;
/** How many past blocks' states a devnet chain keeps, or 'all' of them. */
export type KeptStates = number | 'all';
/** The grace the service plans with and `switchyard deploy` deploys, so the devnet's addresses are an operator's. */
export const SETTLEMENT_GRACE_SECONDS = DEFAULT_SETTLEMENT_GRACE_SECONDS;
/** Automine includes a transaction in the block it arrives in; one block is final enough on a devnet. */
export const DEVNET_CONFIRMATIONS = 1;
/**
 * The engine's JSON-RPC batch size on the devnet chains: anvil answers a batch item by item with one HTTP
 * exchange, which at 32 intents in flight cut the service's CPU per intent by about a third
 * (docs/benchmarks.md, "JSON-RPC batches"); 32 bounds one answer's size and its last item's wait.
 */
export const DEVNET_RPC_BATCH_SIZE = 32;
/** Receipts arrive within milliseconds under automine; viem's default 4 s polling would dominate start-up. */
export const RECEIPT_POLLING_INTERVAL_MS = 50;

/** anvil's default mnemonic: its first ten accounts are public test keys, funded with 10,000 ETH each. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** Which of anvil's default accounts plays which role (index in the default mnemonic). */
export const ROLE_ACCOUNT_INDEX = {
  deployer: 0,
  relayer: 1,
  solver: 2,
  attester: 3,
  feeCollector: 4,
  user: 5,
} as const;
export type DevnetRole = keyof typeof ROLE_ACCOUNT_INDEX;

export type DevnetVaultAsset = 'USDC' | 'DAI';

export interface DevnetVaultSpec {
  asset: DevnetVaultAsset;
  /** Yield on the seed deposit, in basis points per year; sets the vault's `yieldPerSecond`. */
  apyBps: number;
}

export const SECONDS_PER_YEAR = 31_536_000n;
export const BPS = 10_000n;

export interface DevnetTokenInfo {
  symbol: string;
  name: string;
  decimals: number;
}

/** Token metadata as the server presents it; ETH is the native currency (zero address). */
export const DEVNET_TOKEN_INFO: Record<string, DevnetTokenInfo> = {
  ETH: { symbol: 'ETH', name: 'Ether', decimals: 18 },
  WETH: { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
  USDC: { symbol: 'USDC', name: 'USD Coin (devnet)', decimals: 6 },
  DAI: { symbol: 'DAI', name: 'Dai Stablecoin (devnet)', decimals: 18 },
};

export const usdc = (whole: string) => parseUnits(whole, 6);
export const dai = (whole: string) => parseUnits(whole, 18);

/** Pool depths: deep enough that demo-sized swaps (thousands of dollars) move the price by basis points. */
export const POOL_SEED = {
  /** Stable/stable at 1:1. */
  usdcDai: { usdc: usdc('10000000'), dai: dai('10000000') },
  /** 3,000,000 USDC against 1,000 WETH: 3,000 USDC per ETH, a realistic price. */
  usdcWeth: { usdc: usdc('3000000'), eth: parseEther('1000') },
} as const;

/** The 0.01 % tier the public factories enabled after launch (fee in pips, tick spacing). */
export const STABLE_FEE_TIER = { fee: 100, tickSpacing: 1 } as const;

export type DevnetPoolToken = 'USDC' | 'DAI' | 'WETH';

/** One Uniswap V3 position: a price range around the pool price and how much it holds on one side. */
export interface V3PositionSeed {
  /** The range is [price ÷ (1 + w), price × (1 + w)] with w = widthBps / 10,000. */
  widthBps: number;
  /** Base units of the pool's `quote` token the position holds below the price (the other side matches). */
  quoteAmount: bigint;
}

export interface V3PoolSeed {
  base: DevnetPoolToken;
  quote: DevnetPoolToken;
  /** Fee tier in pips. */
  fee: number;
  /** The price, as a ratio of base units (the V2 seed's ratio: the same price on both protocols). */
  price: { base: bigint; quote: bigint };
  positions: readonly V3PositionSeed[];
}

/**
 * Uniswap V3 pools at the V2 pairs' prices, liquidity concentrated around them. Depths are chosen against
 * the V2 pairs (3M USDC / 1,000 WETH and 10M USDC / 10M DAI) so that every routing choice happens on the
 * devnet: V3 gives more on large trades (deeper near the price), V2 on small ones (a V2 swap costs less gas
 * than a SwapRouter02 one, and below ~$50 that outweighs the lower V3 fee), a large order does best split
 * across pools, and WETH/DAI is thin so that DAI → WETH goes through USDC in two hops.
 */
export const V3_POOL_SEED: readonly V3PoolSeed[] = [
  {
    base: 'DAI',
    quote: 'USDC',
    fee: STABLE_FEE_TIER.fee,
    price: { base: dai('1'), quote: usdc('1') },
    positions: [
      { widthBps: 20, quoteAmount: usdc('1000000') },
      { widthBps: 100, quoteAmount: usdc('1000000') },
    ],
  },
  {
    base: 'WETH',
    quote: 'USDC',
    fee: 500,
    price: { base: parseEther('1'), quote: usdc('3000') },
    positions: [
      { widthBps: 150, quoteAmount: usdc('150000') },
      { widthBps: 600, quoteAmount: usdc('150000') },
    ],
  },
  {
    base: 'WETH',
    quote: 'USDC',
    fee: 3000,
    price: { base: parseEther('1'), quote: usdc('3000') },
    positions: [
      { widthBps: 2500, quoteAmount: usdc('600000') },
      { widthBps: 8000, quoteAmount: usdc('300000') },
    ],
  },
  {
    base: 'WETH',
    quote: 'DAI',
    fee: 3000,
    price: { base: parseEther('1'), quote: dai('3000') },
    positions: [{ widthBps: 2000, quoteAmount: dai('50000') }],
  },
];

/** What each role holds on every chain once the devnet is set up (ETH is set, tokens are minted). */
export const FUNDING = {
  relayerEth: parseEther('1000'),
  attesterEth: parseEther('100'),
  feeCollectorEth: parseEther('10'),
  solver: { eth: parseEther('1000'), weth: parseEther('500'), usdc: usdc('1000000'), dai: dai('1000000') },
  user: { eth: parseEther('100'), usdc: usdc('10000'), dai: dai('10000') },
  /** The deployer seeds every vault with a first deposit so share prices are meaningful from block one. */
  vaultSeed: { USDC: usdc('100000'), DAI: dai('100000') } as Record<DevnetVaultAsset, bigint>,
} as const;

/** Router deadlines during setup: far enough ahead that a slow machine never trips them. */
export const SETUP_DEADLINE_SECONDS = 3600n;
