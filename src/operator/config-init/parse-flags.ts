/**
 * `config init`'s repeated flags: `--token SYMBOL=ADDRESS@CHAINID` (a token on a chain the registry does not
 * know, or one it lists differently) and `--price SYMBOL=USD` (a fixed USD price for every token with that
 * symbol, the native currency included). A malformed value is a ConfigError naming the flag and the value.
 */
import { type Address, getAddress, isAddress } from 'viem';
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

const TOKEN_FLAG = /^([A-Za-z0-9.$_-]{1,32})=(0x[0-9a-fA-F]{40})@([0-9]{1,16})$/;
const PRICE_FLAG = /^([A-Za-z0-9.$_-]{1,32})=([0-9]+(?:\.[0-9]+)?)$/;

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
