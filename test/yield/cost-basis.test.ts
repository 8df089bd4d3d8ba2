/** The average-cost basis a position's "earned" is measured against (src/yield/cost-basis.ts), event by event. */
import { type Address, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { costBasis, type ShareEvent } from '../../src/yield/cost-basis.ts';

const holder: Address = '0x00000000000000000000000000000000000000a1';
const other: Address = '0x00000000000000000000000000000000000000b2';

const deposit = (assets: bigint, shares: bigint, owner = holder): ShareEvent => ({
  kind: 'deposit',
  owner,
  assets,
  shares,
});
const withdraw = (assets: bigint, shares: bigint): ShareEvent => ({
  kind: 'withdraw',
  owner: holder,
  assets,
  shares,
});
const transfer = (from: Address, to: Address, shares: bigint): ShareEvent => ({
  kind: 'transfer',
  from,
  to,
  shares,
});

describe('costBasis', () => {
  it('adds what deposits paid, and ignores their mints and other owners', () => {
    const events = [
      deposit(1_000n, 1_000n),
      transfer(zeroAddress, holder, 1_000n),
      deposit(500n, 400n),
      deposit(9_999n, 9_999n, other),
    ];
    expect(costBasis(holder, events, { shares: 1_400n, value: 1_800n })).toBe(1_500n);
  });

  it('lowers the basis in proportion to the shares withdrawn or sent away, whatever the assets received', () => {
    const events = [deposit(1_000n, 1_000n), withdraw(600n, 250n), transfer(holder, other, 250n)];
    // 1000 × 750/1000 = 750, then 750 × 500/750 = 500.
    expect(costBasis(holder, events, { shares: 500n, value: 650n })).toBe(500n);
  });

  it('counts shares received from another holder at what they are worth now, and a self-transfer not at all', () => {
    const events = [deposit(1_000n, 1_000n), transfer(other, holder, 500n), transfer(holder, holder, 100n)];
    // Now 1500 shares are worth 1800: the 500 received cost 600 by that measure.
    expect(costBasis(holder, events, { shares: 1_500n, value: 1_800n })).toBe(1_600n);
  });

  it('is unknown when the events do not add up to the shares held', () => {
    expect(costBasis(holder, [deposit(1_000n, 1_000n)], { shares: 1_200n, value: 1_300n })).toBeUndefined();
    expect(costBasis(holder, [], { shares: 0n, value: 0n })).toBe(0n);
  });
});
