/**
 * `config init`'s repeated flags: `--token SYMBOL=ADDRESS@CHAINID` (a token on a chain the registry does not
 * know, or one it lists differently), `--price SYMBOL=USD` (a fixed USD price for every token with that
 * symbol, the native currency included), `--max-fee-gwei CHAINID=GWEI` (the chain's `maxFeePerGasGwei`) and
 * `--low-water SYMBOL@CHAINID=AMOUNT` (a token's `lowWaterMark`, given in whole tokens). A malformed value is
 * a ConfigError naming the flag and the value.
 */
import { type Address, getAddress, isAddress, parseGwei } from 'viem';
import { MAX_FEE_CAP_GWEI } from '../../api/resolve-config.ts';
import { ConfigError } from '../../internal/errors.ts';

export interface TokenFlag {
  symbol: string;
  address: Address;
  chainId: number;
}

export interface PriceFlag {
  symbol: string;
  usd: number;
}

export interface MaxFeeFlag {
  chainId: number;
  /** As given: a decimal string of gwei, which the serve config keeps exact. */
  gwei: string;
}

export interface LowWaterFlag {
  symbol: string;
  chainId: number;
  /** Whole tokens as given ("5000", "0.5"); scaled to base units with the token's decimals once it is known. */
  amount: string;
  /** The flag's value, for errors found later. */
  raw: string;
}

const TOKEN_FLAG = /^([A-Za-z0-9.$_-]{1,32})=(0x[0-9a-fA-F]{40})@([0-9]{1,16})$/;
const PRICE_FLAG = /^([A-Za-z0-9.$_-]{1,32})=([0-9]+(?:\.[0-9]+)?)$/;
/** The serve config's gwei form: up to 7 whole digits and 9 decimals (1 wei). */
const MAX_FEE_FLAG = /^([0-9]{1,16})=([0-9]{1,7}(?:\.[0-9]{1,9})?)$/;
const LOW_WATER_FLAG = /^([A-Za-z0-9.$_-]{1,32})@([0-9]{1,16})=([0-9]{1,78}(?:\.[0-9]{1,78})?)$/;

export function parseTokenFlag(value: string): TokenFlag {
  const match = TOKEN_FLAG.exec(value.trim());
  if (!match || !isAddress(match[2]!, { strict: false })) {
    throw new ConfigError(`--token ${value}: expected SYMBOL=ADDRESS@CHAINID, e.g. WETH=0xC02a…6Cc2@1`);
  }
  return { symbol: match[1]!, address: getAddress(match[2]!), chainId: Number(match[3]) };
}

export function parsePriceFlag(value: string): PriceFlag {
  const match = PRICE_FLAG.exec(value.trim());
  const usd = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isFinite(usd) || usd <= 0) {
    throw new ConfigError(`--price ${value}: expected SYMBOL=USD with a positive price, e.g. ETH=3000`);
  }
  return { symbol: match[1]!, usd };
}

export function parseMaxFeeFlag(value: string): MaxFeeFlag {
  const match = MAX_FEE_FLAG.exec(value.trim());
  const wei = match ? parseGwei(match[2]!) : 0n;
  if (!match || wei <= 0n || wei > parseGwei(String(MAX_FEE_CAP_GWEI))) {
    throw new ConfigError(
      `--max-fee-gwei ${value}: expected CHAINID=GWEI with a price above 0 and at most ${MAX_FEE_CAP_GWEI} gwei (up to 9 decimals), e.g. 8453=0.5`,
    );
  }
  return { chainId: Number(match[1]), gwei: match[2]! };
}

export function parseLowWaterFlag(value: string): LowWaterFlag {
  const match = LOW_WATER_FLAG.exec(value.trim());
  if (!match) {
    throw new ConfigError(
      `--low-water ${value}: expected SYMBOL@CHAINID=AMOUNT with the amount in whole tokens, e.g. USDC@8453=5000`,
    );
  }
  return { symbol: match[1]!, chainId: Number(match[2]), amount: match[3]!, raw: value };
}
