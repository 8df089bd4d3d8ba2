/**
 * The `serve` config file `config init` writes, from what was read about each chain and the --price flags.
 * Only what the file may hold: no key, no database URL (it may carry a password), no host or port (the
 * environment and flags set those). A field the serve config gains is one line in `chainEntry` or
 * `tokenEntry`, read from the chain's facts or its registry entry.
 */
import type { TokenConfig } from '../../internal/config-types.ts';
import { ConfigError } from '../../internal/errors.ts';
import type { PriceFlag } from './parse-flags.ts';
import type { ChainFacts, Warn } from './read-chain-facts.ts';

export interface ServeConfigFile {
  chains: ReturnType<typeof chainEntry>[];
  prices?: Record<string, number>;
}

export function buildServeConfig(facts: readonly ChainFacts[], prices: readonly PriceFlag[], warn: Warn) {
  const file: ServeConfigFile = { chains: facts.map(chainEntry) };
  const priced = priceEntries(facts, prices);
  if (Object.keys(priced).length > 0) file.prices = priced;
  warnUnpriced(facts, priced, warn);
  return file;
}

function chainEntry(f: ChainFacts) {
  return {
    chainId: f.chainId,
    name: f.name,
    rpcUrls: [f.rpcUrl],
    ...(f.explorerUrl !== undefined && { explorerUrl: f.explorerUrl }),
    nativeCurrency: f.nativeCurrency,
    isTestnet: f.isTestnet,
    confirmations: f.confirmations,
    tokens: f.tokens.map((t) => tokenEntry(t, f)),
    contracts: f.contracts,
  };
}

function tokenEntry(t: TokenConfig, _chain: ChainFacts): TokenConfig {
  return {
    symbol: t.symbol,
    name: t.name,
    address: t.address,
    decimals: t.decimals,
    ...(t.featured !== undefined && { featured: t.featured }),
    ...(t.isUsdReference !== undefined && { isUsdReference: t.isUsdReference }),
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
