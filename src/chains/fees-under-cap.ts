import { formatGwei, type PublicClient } from 'viem';
import type { Logger } from '../internal/logger.ts';
import { readChainFees } from './chain-fees.ts';
import { FeeAboveCapError } from './errors.ts';
import type { FeeCache } from './fee-cache.ts';
import { feesToSign, type SignedFees } from './fee-caps.ts';
import type { HeadWatcher } from './head-watcher.ts';
import type { LatestBlockCache } from './latest-block-cache.ts';
import { withChainErrors } from './map-chain-error.ts';

/**
 * The chain's fees to sign with, waiting (unsigned) while it asks more than the cap: reported once per
 * send, and after WAIT_PER_ATTEMPT_MS the step is retried later (FeeAboveCapError).
 */
export type FeesUnderCap = (
  chainId: number,
  client: PublicClient,
  ctx: Record<string, unknown>,
) => Promise<SignedFees>;

export interface FeesUnderCapDeps {
  /** The chain's cap per gas (wei), or undefined for none (TransactionSenderDeps.maxFeePerGas). */
  maxFeePerGas?: ((chainId: number) => bigint | undefined) | undefined;
  feeCache: FeeCache;
  latestBlocks: LatestBlockCache;
  heads: HeadWatcher;
  log: Logger;
  waitPerAttemptMs: number;
  pollMs: number;
}

export function createFeesUnderCap(deps: FeesUnderCapDeps): FeesUnderCap {
  const { feeCache, latestBlocks, heads, log } = deps;
  return async (chainId, client, ctx) => {
    const cap = deps.maxFeePerGas?.(chainId);
    const started = Date.now();
    let reported = false;
    for (;;) {
      const seenHead = heads.head(chainId);
      const chainFees = await withChainErrors(
        () => feeCache.get(chainId, () => readChainFees(client, latestBlocks.get(chainId))),
        ctx,
      );
      const fees = feesToSign(chainFees, cap);
      if (!('overCap' in fees)) {
        if (reported)
          log.info('the chain fee is under the cap again: the waiting transaction is signed', ctx);
        return fees;
      }
      const asked = {
        ...ctx,
        askedGwei: formatGwei(fees.overCap.price),
        capGwei: formatGwei(fees.overCap.cap),
      };
      if (!reported) {
        reported = true;
        log.warn('a transaction waits: the chain asks more gas fee than its maxFeePerGasGwei cap', asked);
      }
      if (Date.now() - started > deps.waitPerAttemptMs) {
        throw new FeeAboveCapError(
          `chain ${chainId} asks ${asked.askedGwei} gwei per gas, above its cap of ${asked.capGwei} gwei: the transaction waits`,
          { details: asked },
        );
      }
      await heads.waitPast(chainId, seenHead, deps.pollMs);
    }
  };
}
