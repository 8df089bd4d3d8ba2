/**
 * Share-price samples per market, kept in memory by one yield service, and the reward rate they give.
 *
 * Each listing reads the share price at the latest block. The rate compares it with a reference sample:
 * the oldest kept sample inside the last RATE_WINDOW_SECONDS (or, when every kept sample is older, the
 * newest of them). A market seen for the first time has no samples, so its history is read from the chain
 * instead: the same `convertToAssets` call at the previous block (`eth_call` with a block number), walking
 * back while blocks share a timestamp. A node without that state (pruned, or a devnet restored from a
 * snapshot) gives no history: the rate is 0 with a 0-second window until a later listing has two samples.
 */
import type { Address, PublicClient } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { annualiseGrowth } from './annualise-growth.ts';
import { HISTORY_MAX_STEPS, RATE_WINDOW_SECONDS, SAMPLE_SPACING_SECONDS } from './constants.ts';
import { readPriceSample } from './read-vault-state.ts';
import type { PriceSample } from './types.ts';

export interface MeasuredRate {
  rate: number;
  windowSeconds: number;
}

export interface RateTracker {
  measure(input: {
    marketId: string;
    client: PublicClient;
    vault: Address;
    shareDecimals: number;
    current: PriceSample;
  }): Promise<MeasuredRate>;
}

export function createRateTracker(log: Logger): RateTracker {
  const byMarket = new Map<string, PriceSample[]>();
  return {
    async measure({ marketId, client, vault, shareDecimals, current }) {
      let samples = (byMarket.get(marketId) ?? []).filter((s) => isBefore(s, current));
      if (samples.length === 0) {
        const history = await readHistory(client, vault, shareDecimals, current, log);
        samples = history ? [history] : [];
      }
      const referenceIndex = pickReference(samples, current.timestamp);
      const reference = samples[referenceIndex];
      samples = samples.slice(Math.max(referenceIndex, 0));
      const last = samples.at(-1);
      if (!last || current.timestamp - last.timestamp >= BigInt(SAMPLE_SPACING_SECONDS))
        samples.push(current);
      byMarket.set(marketId, samples);
      if (!reference) return { rate: 0, windowSeconds: 0 };
      return {
        rate: annualiseGrowth(reference, current),
        windowSeconds: Number(current.timestamp - reference.timestamp),
      };
    },
  };
}

/** Samples from a later block (the chain was reset or reorganised) are no reference for this one. */
function isBefore(sample: PriceSample, current: PriceSample): boolean {
  return sample.blockNumber < current.blockNumber && sample.timestamp < current.timestamp;
}

/** Index of the oldest sample inside the window, else of the newest one before it; -1 when there is none. */
function pickReference(samples: readonly PriceSample[], now: bigint): number {
  const windowStart = now - BigInt(RATE_WINDOW_SECONDS);
  const inside = samples.findIndex((s) => s.timestamp >= windowStart);
  if (inside >= 0) return inside;
  return samples.length - 1;
}

async function readHistory(
  client: PublicClient,
  vault: Address,
  shareDecimals: number,
  current: PriceSample,
  log: Logger,
): Promise<PriceSample | undefined> {
  for (let step = 1n; step <= BigInt(HISTORY_MAX_STEPS) && step <= current.blockNumber; step++) {
    try {
      const earlier = await readPriceSample(client, vault, shareDecimals, current.blockNumber - step);
      if (earlier.timestamp < current.timestamp) return earlier;
    } catch (error) {
      log.debug('no share-price history at the previous block', {
        vault,
        blockNumber: String(current.blockNumber - step),
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }
  return undefined;
}
