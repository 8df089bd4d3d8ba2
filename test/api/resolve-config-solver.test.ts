/**
 * `switchyard serve` configuration of the operator's limits (src/api/resolve-config.ts): a chain's fee
 * ceiling (`maxFeePerGasGwei`: absent means none; a number or a decimal string of gwei becomes the exact
 * amount in wei) and a token's `lowWaterMark` (base units, as amounts are on the wire). Anything else stops
 * start-up with an error naming the field.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/internal/errors.ts';
import { configChain, resolveConfigFile } from '../harness/config-file.ts';

const chain = configChain;
const resolveWith = (chains: unknown[]) => resolveConfigFile({ chains });

describe('resolveConfig: maxFeePerGasGwei', () => {
  it('is no ceiling when a chain does not say, and the exact wei of the gwei given when it does', () => {
    const config = resolveWith([
      chain(1),
      chain(2, { maxFeePerGasGwei: 30 }),
      chain(3, { maxFeePerGasGwei: 0.05 }),
      chain(4, { maxFeePerGasGwei: '1.000000001' }),
    ]);
    expect(config.chains.map((c) => c.maxFeePerGasWei)).toEqual([
      undefined,
      30_000_000_000n,
      50_000_000n,
      1_000_000_001n,
    ]);
    expect(config.chains.some((c) => 'maxFeePerGasGwei' in c)).toBe(false);
  });

  it.each([0, -1, 'fast', '1.0000000001', 2_000_000, 1e-12, true])(
    'rejects %j, naming the field',
    (value) => {
      const bad = () => resolveWith([chain(1), chain(2, { maxFeePerGasGwei: value })]);
      expect(bad).toThrow(ConfigError);
      expect(bad).toThrow(/chains\[1\]\.maxFeePerGasGwei: must be a price in gwei above 0/);
    },
  );
});

const token = (extra: Record<string, unknown> = {}) => ({
  symbol: 'USDC',
  name: 'USD Coin',
  address: '0x0000000000000000000000000000000000000002',
  decimals: 6,
  ...extra,
});

describe('resolveConfig: lowWaterMark', () => {
  it('is none when a token does not say, and the base units given (string or safe integer) when it does', () => {
    const config = resolveWith([
      chain(1, {
        tokens: [
          token(),
          token({ lowWaterMark: '250000000000000000000000' }),
          token({ lowWaterMark: 5_000_000 }),
        ],
      }),
    ]);
    expect(config.chains[0]!.tokens.map((t) => t.lowWaterMark)).toEqual([
      undefined,
      250_000_000_000_000_000_000_000n,
      5_000_000n,
    ]);
  });

  it.each(['1.5', -1, '1e6', 2 ** 60])('rejects %j, naming the field', (value) => {
    const bad = () => resolveWith([chain(1, { tokens: [token(), token({ lowWaterMark: value })] })]);
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(
      /chains\[0\]\.tokens\[1\]\.lowWaterMark: must be a non-negative integer in base units/,
    );
  });
});
