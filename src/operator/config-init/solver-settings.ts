/**
 * The solver's settings `config init` takes as flags, checked against the chains it read: a chain's fee cap
 * (`--max-fee-gwei`, the serve config's `maxFeePerGasGwei`) and a token's low-water mark (`--low-water`, in
 * whole tokens, scaled exactly to base units with the token's decimals). A flag naming a chain or token that
 * is not in the file, or given twice, is a ConfigError naming the flag.
 */
import { zeroAddress } from 'viem';
import type { TokenConfig } from '../../internal/config-types.ts';
import { ConfigError, InvalidInputError } from '../../internal/errors.ts';
import { parseHumanAmount } from '../../yield/parse-token-amount.ts';
import type { LowWaterFlag, MaxFeeFlag } from './parse-flags.ts';
import type { ChainFacts } from './read-chain-facts.ts';

export interface SolverSettings {
  /** Gwei as given, per chain id. */
  maxFeeGwei: ReadonlyMap<number, string>;
  /** A token's low-water mark in base units, when a flag set one. */
  lowWaterOf(chainId: number, token: TokenConfig): bigint | undefined;
}

export function solverSettings(
  facts: readonly ChainFacts[],
  flags: { maxFees: readonly MaxFeeFlag[]; lowWaters: readonly LowWaterFlag[] },
): SolverSettings {
  const maxFeeGwei = new Map<number, string>();
  for (const flag of flags.maxFees) {
    const name = `--max-fee-gwei ${flag.chainId}=${flag.gwei}`;
    chainOf(facts, flag.chainId, name);
    if (maxFeeGwei.has(flag.chainId)) throw new ConfigError(`${name}: chain ${flag.chainId} is given twice`);
    maxFeeGwei.set(flag.chainId, flag.gwei);
  }
  const marks = new Map<string, bigint>();
  for (const flag of flags.lowWaters) {
    const token = lowWaterToken(facts, flag);
    const key = `${flag.chainId}:${token.address.toLowerCase()}`;
    if (marks.has(key)) {
      throw new ConfigError(
        `--low-water ${flag.raw}: ${flag.symbol} on chain ${flag.chainId} is given twice`,
      );
    }
    marks.set(key, lowWaterAmount(flag, token));
  }
  return {
    maxFeeGwei,
    lowWaterOf: (chainId, token) => marks.get(`${chainId}:${token.address.toLowerCase()}`),
  };
}

function chainOf(facts: readonly ChainFacts[], chainId: number, flag: string): ChainFacts {
  const chain = facts.find((f) => f.chainId === chainId);
  if (!chain) throw new ConfigError(`${flag}: chain ${chainId} is not one of the --rpc-url chains`);
  return chain;
}

/** The listed ERC-20 the flag names: the solver holds and fills tokens, its gas is doctor's concern. */
function lowWaterToken(facts: readonly ChainFacts[], flag: LowWaterFlag): TokenConfig {
  const name = `--low-water ${flag.raw}`;
  const chain = chainOf(facts, flag.chainId, name);
  const token = chain.tokens.find((t) => t.symbol === flag.symbol);
  if (!token) {
    const listed = chain.tokens.map((t) => t.symbol).join(', ');
    throw new ConfigError(
      `${name}: chain ${flag.chainId} lists no token called ${flag.symbol} (it lists ${listed})`,
    );
  }
  if (token.address === zeroAddress) {
    throw new ConfigError(
      `${name}: ${flag.symbol} is chain ${flag.chainId}'s native currency; a low-water mark is for the ERC-20s the solver fills`,
    );
  }
  return token;
}

function lowWaterAmount(flag: LowWaterFlag, token: TokenConfig): bigint {
  try {
    return parseHumanAmount('amount', flag.amount, token.decimals);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new ConfigError(`--low-water ${flag.raw}: the amount (whole ${flag.symbol}) ${error.problem}`);
  }
}
