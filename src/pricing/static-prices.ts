/**
 * The configured static price map, `{ "<chainId>:<address>": usd }`, parsed once into a lookup keyed
 * by chain id and lowercase address. The native currency is the zero address.
 */
import { InvalidStaticPriceError } from './errors.ts';

const KEY_PATTERN = /^([0-9]{1,16}):(0x[0-9a-fA-F]{40})$/;

export type StaticPrices = ReadonlyMap<string, number>;

export function priceKey(chainId: number, token: string): string {
  return `${chainId}:${token.toLowerCase()}`;
}

export function parseStaticPrices(prices: Readonly<Record<string, number>> | undefined): StaticPrices {
  const out = new Map<string, number>();
  for (const [key, value] of Object.entries(prices ?? {})) {
    const match = KEY_PATTERN.exec(key.trim());
    if (!match) throw new InvalidStaticPriceError(key, 'the key must be "<chainId>:<0x address>"', key);
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new InvalidStaticPriceError(key, 'the price must be a positive number of USD', value);
    out.set(priceKey(Number(match[1]), match[2]!), value);
  }
  return out;
}
