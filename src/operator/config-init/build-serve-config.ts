/**
 * The `serve` config file `config init` writes, from what was read about each chain and the --price,
 * --max-fee-gwei and --low-water flags. Only what the file may hold: no key, no database URL (it may carry a
 * password), no host or port (the environment and flags set those). A field the serve config gains is one
 * line in `chainEntry` or `tokenEntry`, read from the chain's facts, its registry entry or a flag.
 */
import type { TokenConfig } from '../../internal/config-types.ts';
import { ConfigError } from '../../internal/errors.ts';
import type { LowWaterFlag, MaxFeeFlag, PriceFlag } from './parse-flags.ts';
import type { ChainFacts, Warn } from './read-chain-facts.ts';
import { solverSettings } from './solver-settings.ts';

export interface ServeConfigFile {
  chains: ReturnType<typeof chainEntry>[];
  prices?: Record<string, number>;
}

export interface ServeConfigFlags {
  prices: readonly PriceFlag[];
  maxFees: readonly MaxFeeFlag[];
  lowWaters: readonly LowWaterFlag[];
}

/** A token as the file holds it: the low-water mark in base units as a decimal string (JSON has no bigint). */
type TokenEntry = Omit<TokenConfig, 'lowWaterMark'> & { lowWaterMark?: string };

export function buildServeConfig(facts: readonly ChainFacts[], flags: ServeConfigFlags, warn: Warn) {
  const settings = solverSettings(facts, flags);
  const file: ServeConfigFile = {
    chains: facts.map((f) => chainEntry(f, settings.maxFeeGwei.get(f.chainId), settings.lowWaterOf)),
  };
  const priced = priceEntries(facts, flags.prices);
  if (Object.keys(priced).length > 0) file.prices = priced;
  warnUnpriced(facts, priced, warn);
  return file;
}

function chainEntry(
  f: ChainFacts,
  maxFeeGwei: string | undefined,
  lowWaterOf: (chainId: number, t: TokenConfig) => bigint | undefined,
) {
  return {
    chainId: f.chainId,
    name: f.name,
    rpcUrls: [f.rpcUrl],
    ...(f.explorerUrl !== undefined && { explorerUrl: f.explorerUrl }),
    nativeCurrency: f.nativeCurrency,
    isTestnet: f.isTestnet,
    confirmations: f.confirmations,
    ...(maxFeeGwei !== undefined && { maxFeePerGasGwei: maxFeeGwei }),
    tokens: f.tokens.map((t) => tokenEntry(t, lowWaterOf(f.chainId, t))),
    contracts: f.contracts,
  };
}

function tokenEntry(t: TokenConfig, lowWaterMark: bigint | undefined): TokenEntry {
  return {
    symbol: t.symbol,
    name: t.name,
    address: t.address,
    decimals: t.decimals,
    ...(t.featured !== undefined && { featured: t.featured }),
    ...(t.isUsdReference !== undefined && { isUsdReference: t.isUsdReference }),
    ...(lowWaterMark !== undefined && { lowWaterMark: lowWaterMark.toString() }),
  };
}

const priceKey = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;

function priceEntries(facts: readonly ChainFacts[], prices: readonly PriceFlag[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { symbol, usd } of prices) {
    const matches = facts.flatMap((f) =>
      f.tokens.filter((t) => t.symbol === symbol).map((t) => priceKey(f.chainId, t.address)),
    );
    if (matches.length === 0) {
      throw new ConfigError(`--price ${symbol}=${usd}: no chain lists a token called ${symbol}`);
    }
    for (const key of matches) out[key] = usd;
  }
  return out;
}

/** A token with neither a fixed price nor pool pricing cannot be valued: quotes paying fees in it fail. */
function warnUnpriced(facts: readonly ChainFacts[], priced: Record<string, number>, warn: Warn) {
  for (const f of facts) {
    const factory = f.contracts.uniswapV2Factory ?? f.contracts.uniswapV3Factory;
    const pools = Boolean(factory && f.tokens.some((t) => t.isUsdReference));
    if (pools) continue;
    const missing = f.tokens.filter((t) => priced[priceKey(f.chainId, t.address)] === undefined);
    if (missing.length === 0) continue;
    const symbols = [...new Set(missing.map((t) => t.symbol))];
    warn(
      `chain ${f.chainId}: no price for ${symbols.join(', ')} (no Uniswap V2 or V3 pools with a USD token to price from); ` +
        `add --price ${symbols[0]}=USD for each`,
      { chainId: f.chainId },
    );
  }
}
