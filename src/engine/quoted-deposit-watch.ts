/**
 * Watches the addresses of quotes that were never committed for deposits (record-quoted-deposit.ts decides
 * what happens to one). Run by the deposit watcher, once a round; the cost does not grow with the number
 * of quotes where it can avoid it:
 *
 * - Token deposits: per chain, one eth_getLogs of the listed tokens' `Transfer` events over the blocks
 *   since the last round (at the chain's confirmation depth, at most QUOTED_WATCH_MAX_BLOCKS), and one
 *   indexed store lookup of the recipients among QUOTED intents. Every stored quote is covered, however
 *   many there are. After a start the watch looks back LOG_LOOKBACK_BLOCKS.
 * - Native deposits leave no log: the native quotes made in the last QUOTED_NATIVE_WATCH_MS are read one
 *   balance each, QUOTED_NATIVE_SCAN_BATCH a round, in pages (the next round goes on after the last one).
 */
import { type Address, erc20Abi, getAbiItem, type Hex, type Log, zeroAddress } from 'viem';
import { withChainErrors } from '../chains/map-chain-error.ts';
import type { IntentRecord } from '../store/types.ts';
import { balanceAt } from './chain-reads.ts';
import {
  LOG_LOOKBACK_BLOCKS,
  QUOTED_NATIVE_SCAN_BATCH,
  QUOTED_NATIVE_WATCH_MS,
  QUOTED_WATCH_MAX_BLOCKS,
} from './constants.ts';
import type { EngineContext } from './context.ts';
import { recordQuotedDeposit, type SeenTransfer } from './record-quoted-deposit.ts';

const TRANSFER = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

export interface QuotedDepositWatch {
  /** One round over every chain; returns how many deposits it recorded. */
  round(): Promise<number>;
}

export function createQuotedDepositWatch(
  ctx: EngineContext,
  options: { chainIds: readonly number[]; nativeBatch?: number },
): QuotedDepositWatch {
  const nativeBatch = options.nativeBatch ?? QUOTED_NATIVE_SCAN_BATCH;
  /** Per chain, the last block whose transfers were looked at. */
  const scanned = new Map<number, bigint>();
  /** Where the next page of native quotes starts; undefined: from the oldest still watched. */
  let nativeAfter: { createdAt: Date; id: number } | undefined;

  async function transfers(chainId: number): Promise<number> {
    const { client, config } = ctx.chain(chainId);
    const tokens = config.tokens.map((t) => t.address as Address);
    if (tokens.length === 0) return 0;
    const head = await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
    const safe = head - BigInt(Math.max(1, config.confirmations)) + 1n;
    const last = scanned.get(chainId);
    // First round, or the chain went back below what was read (a rollback, a restart from older state): the
    // blocks are read again from the look-back, as after a start (recording is idempotent).
    const from =
      last !== undefined && last <= safe
        ? last + 1n
        : safe > LOG_LOOKBACK_BLOCKS
          ? safe - LOG_LOOKBACK_BLOCKS
          : 0n;
    if (safe < 0n || from > safe) return 0;
    const to = safe < from + QUOTED_WATCH_MAX_BLOCKS - 1n ? safe : from + QUOTED_WATCH_MAX_BLOCKS - 1n;
    const logs = await withChainErrors(() =>
      client.getLogs({ address: tokens, event: TRANSFER, fromBlock: from, toBlock: to }),
    );
    // The newest transfer to each address: the one the receipt shows.
    const paid = new Map<string, (typeof logs)[number]>();
    for (const log of logs) if (log.args.value && log.args.to) paid.set(log.args.to.toLowerCase(), log);
    let recorded = 0;
    let failed = false;
    if (paid.size > 0) {
      const quoted = await ctx.store.intents.quotedAtAddresses({
        originChainId: chainId,
        addresses: [...paid.keys()],
      });
      for (const intent of quoted) {
        const log = paid.get(intent.originIntentAddress.toLowerCase())!;
        const outcome = await record(intent, await seenIn(chainId, log));
        if (outcome === undefined) failed = true;
        else if (outcome) recorded++;
      }
    }
    // A failed record is looked for again next round (recording is idempotent).
    if (!failed) scanned.set(chainId, to);
    return recorded;
  }

  async function seenIn(chainId: number, log: Log<bigint, number, false, typeof TRANSFER>) {
    const block = await withChainErrors(() =>
      ctx.chain(chainId).client.getBlock({ blockNumber: log.blockNumber }),
    );
    return {
      hash: log.transactionHash as Hex,
      from: log.args.from as string,
      minedAt: new Date(Number(block.timestamp) * 1000),
    };
  }

  async function native(): Promise<number> {
    const page = await ctx.store.intents.listRecentQuoted({
      originTokenAddress: zeroAddress,
      createdAfter: new Date(Date.now() - QUOTED_NATIVE_WATCH_MS),
      ...(nativeAfter && { after: nativeAfter }),
      limit: nativeBatch,
    });
    const last = page.at(-1);
    nativeAfter = page.length < nativeBatch || !last ? undefined : { createdAt: last.createdAt, id: last.id };
    let recorded = 0;
    for (const intent of page) {
      if (!options.chainIds.includes(intent.originChainId)) continue;
      const { client } = ctx.chain(intent.originChainId);
      const balance = await balanceAt(client, zeroAddress, intent.originIntentAddress as Address);
      if (balance > 0n && (await record(intent))) recorded++;
    }
    return recorded;
  }

  /** True: recorded; false: nothing to record; undefined: failed (logged). */
  async function record(intent: IntentRecord, seen?: SeenTransfer): Promise<boolean | undefined> {
    try {
      return await recordQuotedDeposit(ctx, intent, seen);
    } catch (error) {
      ctx.log.warn('recording a deposit to a quote failed; the next round retries', {
        intentId: intent.intentId,
        error,
      });
      return undefined;
    }
  }

  return {
    async round() {
      let recorded = 0;
      for (const chainId of options.chainIds) {
        try {
          recorded += await transfers(chainId);
        } catch (error) {
          ctx.log.warn('quoted-deposit watch failed on a chain; the next round retries', { chainId, error });
        }
      }
      return recorded + (await native());
    },
  };
}
