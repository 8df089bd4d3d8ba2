/**
 * Live readings of several markets side by side. A market whose vault cannot be read (its node is down) is
 * left out and logged, so one chain's outage does not empty a listing.
 */
import type { Logger } from '../internal/logger.ts';
import type { MarketReader } from './create-market-reader.ts';
import type { MarketConfig, MarketReading } from './types.ts';

export async function readMarkets(
  reader: MarketReader,
  markets: readonly MarketConfig[],
  log: Logger,
): Promise<MarketReading[]> {
  const settled = await Promise.allSettled(markets.map((m) => reader.read(m)));
  const readings: MarketReading[] = [];
  settled.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      readings.push(result.value);
      return;
    }
    log.warn('yield market left out: its vault could not be read', {
      marketId: markets[i]!.id,
      error: result.reason instanceof Error ? result.reason.message : String(result.reason),
    });
  });
  return readings;
}
