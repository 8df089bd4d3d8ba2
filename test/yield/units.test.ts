/** The yield service's pure parts: the registry from configuration, exact amounts, the rate maths and sampling. */
import type { Address, PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import type { ChainConfig } from '../../src/internal/config-types.ts';
import { ConfigError, InvalidInputError } from '../../src/internal/errors.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createRateTracker } from '../../src/yield/create-rate-tracker.ts';
import { annualiseGrowth, resolveMarkets } from '../../src/yield/index.ts';
import { parseHumanAmount, parseRawAmount } from '../../src/yield/parse-token-amount.ts';
import type { PriceSample } from '../../src/yield/types.ts';

const addr = (digit: string) => `0x${digit.repeat(40)}` as Address;
const VAULT_A = '0xAbCdEf0000000000000000000000000000000001' as Address;

function chain(chainId: number, extra: Partial<ChainConfig> = {}): ChainConfig {
  return {
    chainId,
    name: `Chain ${chainId}`,
    rpcUrls: ['http://127.0.0.1:1'],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    isTestnet: true,
    confirmations: 1,
    tokens: [],
    contracts: {
      intentFactory: addr('1'),
      intentAccountImplementation: addr('2'),
      originSettler: addr('3'),
      destinationSettler: addr('4'),
      fillVerifier: addr('5'),
    },
    ...extra,
  };
}

describe('resolveMarkets', () => {
  it('lists contracts named …Vault on every chain, ids unique across chains', () => {
    const contracts = { ...chain(1).contracts, usdcVault: VAULT_A, weth: addr('7') };
    const markets = resolveMarkets([chain(10, { contracts }), chain(1, { contracts })]);
    expect(markets.map((m) => m.id)).toEqual([
      `erc4626-1-${VAULT_A.toLowerCase()}`,
      `erc4626-10-${VAULT_A.toLowerCase()}`,
    ]);
    expect(markets[0]).toMatchObject({
      providerId: 'erc4626',
      type: 'vault',
      network: 'Chain 1',
      vault: VAULT_A,
    });
  });

  it('takes explicit yieldMarkets, which override a named contract for the same vault', () => {
    const contracts = { ...chain(1).contracts, daiVault: VAULT_A };
    const [market, other] = resolveMarkets([
      chain(1, {
        contracts,
        yieldMarkets: [
          { vault: VAULT_A.toLowerCase() as Address, providerId: 'acme', type: 'lending', name: 'Acme DAI' },
          { vault: addr('9') },
        ],
      }),
    ]);
    expect(market).toMatchObject({
      id: `acme-1-${VAULT_A.toLowerCase()}`,
      type: 'lending',
      name: 'Acme DAI',
    });
    expect(other!.id).toBe(`erc4626-1-${addr('9')}`);
  });

  it('refuses a bad entry with a ConfigError naming it', () => {
    const bad = (entry: unknown) => () => resolveMarkets([chain(5, { yieldMarkets: [entry as never] })]);
    expect(bad({ vault: '0x12' })).toThrow(/chains\[5\]\.yieldMarkets\[0\]\.vault/);
    expect(bad({ vault: VAULT_A, type: 'staking' })).toThrow(/\.type: must be vault or lending/);
    expect(bad({ vault: VAULT_A, providerId: 'Has Space' })).toThrow(/\.providerId/);
    expect(bad({ vault: VAULT_A, providerId: 'Has Space' })).toThrow(ConfigError);
  });
});

describe('amounts', () => {
  it('scales a human decimal string exactly by the token decimals', () => {
    expect(parseHumanAmount('a', '12.5', 6)).toBe(12_500_000n);
    expect(parseHumanAmount('a', '0.000001', 6)).toBe(1n);
    expect(parseHumanAmount('a', '1337133713371337', 18)).toBe(1337133713371337n * 10n ** 18n);
    expect(parseHumanAmount('a', '0.1', 18)).toBe(10n ** 17n);
  });

  it('refuses zero, negatives, non-numbers, too many decimals and more than uint256, naming the field', () => {
    for (const value of ['0', '0.0', '-1', 'abc', '1e6', '', '.5', '1.', ' ', 5]) {
      expect(() => parseHumanAmount('args.amount', value, 6), String(value)).toThrow(InvalidInputError);
    }
    expect(() => parseHumanAmount('args.amount', '1.0000001', 6)).toThrow(
      /args\.amount: has 7 decimal places/,
    );
    expect(() => parseRawAmount('args.amountRaw', (2n ** 256n).toString())).toThrow(/256 bits/);
    expect(() => parseRawAmount('args.amountRaw', '-5')).toThrow(/^args\.amountRaw/);
    expect(parseRawAmount('args.amountRaw', 42)).toBe(42n);
    expect(parseRawAmount('args.amountRaw', (2n ** 256n - 1n).toString())).toBe(2n ** 256n - 1n);
  });
});

const sample = (blockNumber: number, timestamp: number, price: bigint): PriceSample => ({
  blockNumber: BigInt(blockNumber),
  timestamp: BigInt(timestamp),
  assetsPerScaledShare: price,
});

describe('annualiseGrowth', () => {
  it('compounds the growth over a year', () => {
    const p0 = 10n ** 24n;
    // 1 % in half a year is (1.01)^2 − 1 = 2.01 % a year.
    expect(annualiseGrowth(sample(1, 0, p0), sample(2, 31_536_000 / 2, (p0 * 101n) / 100n))).toBeCloseTo(
      0.0201,
      12,
    );
    // 5 % over a year is 5 %.
    expect(annualiseGrowth(sample(1, 0, p0), sample(2, 31_536_000, (p0 * 105n) / 100n))).toBeCloseTo(
      0.05,
      12,
    );
  });

  it('keeps precision for a tiny per-second growth, and is 0 without elapsed time', () => {
    const p0 = 10n ** 24n;
    const perSecond = p0 / 10n ** 9n; // 1e-9 per second ≈ 3.2 % a year compounded
    const rate = annualiseGrowth(sample(1, 100, p0), sample(2, 101, p0 + perSecond));
    expect(rate).toBeCloseTo(Math.expm1(31_536_000 * Math.log1p(1e-9)), 10);
    expect(annualiseGrowth(sample(1, 100, p0), sample(2, 100, p0 * 2n))).toBe(0);
  });
});

/** A chain whose blocks have the given timestamps and share prices; missing blocks have no state. */
function fakeClient(blocks: Record<number, { timestamp: number; price: bigint }>): PublicClient {
  const at = (n: bigint) => {
    const block = blocks[Number(n)];
    if (!block) throw new Error(`missing trie node for block ${n}`);
    return block;
  };
  return {
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({
      timestamp: BigInt(at(blockNumber).timestamp),
    }),
    readContract: async ({ blockNumber }: { blockNumber: bigint }) => at(blockNumber).price,
  } as unknown as PublicClient;
}

describe('createRateTracker', () => {
  const p = 10n ** 24n;
  const input = (client: PublicClient, current: PriceSample) => ({
    marketId: 'm',
    client,
    vault: VAULT_A,
    shareDecimals: 6,
    current,
  });

  it('uses the previous block (walking past equal timestamps) on the first call, then the kept samples', async () => {
    const tracker = createRateTracker(createSilentLogger());
    const client = fakeClient({ 8: { timestamp: 990, price: p }, 9: { timestamp: 1000, price: p } });
    const first = await tracker.measure(input(client, sample(10, 1000, p + p / 10n ** 6n)));
    expect(first.windowSeconds).toBe(10);
    expect(first.rate).toBeGreaterThan(0);
    // A day later the reference is still the block-8 sample (the oldest inside the week).
    const later = await tracker.measure(input(client, sample(11, 990 + 86_400, p + p / 1000n)));
    expect(later.windowSeconds).toBe(86_400);
    expect(later.rate).toBeCloseTo(1.001 ** 365 - 1, 9);
  });

  it('gives 0 over a 0-second window when the node has no history, then measures from its own samples', async () => {
    const tracker = createRateTracker(createSilentLogger());
    const client = fakeClient({});
    expect(await tracker.measure(input(client, sample(10, 1000, p)))).toEqual({ rate: 0, windowSeconds: 0 });
    const next = await tracker.measure(input(client, sample(20, 1000 + 3600, p + p / 10_000n)));
    expect(next.windowSeconds).toBe(3600);
    expect(next.rate).toBeGreaterThan(0);
  });

  it('moves the reference into the last week and forgets samples from a chain that was reset', async () => {
    const tracker = createRateTracker(createSilentLogger());
    const client = fakeClient({});
    const week = 7 * 24 * 3600;
    await tracker.measure(input(client, sample(10, 0, p)));
    await tracker.measure(input(client, sample(20, 3 * 24 * 3600, p)));
    const m = await tracker.measure(input(client, sample(30, week + 4 * 24 * 3600, p)));
    // The sample at day 0 fell out of the week; the day-3 one is the reference.
    expect(m.windowSeconds).toBe(week + 24 * 3600);
    const reset = await tracker.measure(input(fakeClient({}), sample(5, 50, p)));
    expect(reset).toEqual({ rate: 0, windowSeconds: 0 });
  });
});
