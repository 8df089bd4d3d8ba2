/**
 * Step `deposit`: the origin account holds at least the committed deposit at the chain's confirmation
 * depth. Idempotent: it only reads the chain and writes the deposit row.
 *
 * An underpaid or missing deposit waits (rechecked every DEPOSIT_RECHECK_MS). A deposit still short
 * SHORT_DEPOSIT_RETRY_WINDOW_SECONDS before the origin deadline fails the intent (FAILED): the owner can top it
 * up and call RetryIntent until the deadline. The refund after the deadline belongs to the refund path
 * (docs/engine.md).
 */
import { type Hex, zeroAddress } from 'viem';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import { balanceAt, chainNow, findTransferTo, readAccountState } from '../chain-reads.ts';
import { DEPOSIT_RECHECK_MS, SHORT_DEPOSIT_RETRY_WINDOW_SECONDS } from '../constants.ts';
import type { EngineContext, StepDefinition, StepInput } from '../context.ts';
import { readDepositPayment } from '../deposit-payment.ts';
import { DeadlinePassedError } from '../errors.ts';
import { gaslessDepositStep } from '../gasless/index.ts';
import { recordGivenDepositHash } from '../given-deposit-hash.ts';
import { writeRow } from '../receipts.ts';
import { describeAmounts } from '../refunds/held-balances.ts';

export const depositStep: StepDefinition = {
  name: 'deposit',
  async run(ctx, { intent, plan }) {
    const o = plan.origin.intent;
    const { client, config } = ctx.chain(o.chainId);
    const row = {
      chainId: Number(o.chainId),
      toAddress: plan.origin.address,
      tokenAddress: o.depositToken,
      tokenAmount: o.depositAmount,
    };
    // A depth-1 chain counts the latest block (a mined deposit is one confirmation): no head read. Deeper
    // ones read a fresh head (viem caches the block number for the polling interval, which would make a
    // deposit mined just now look absent and cost a DEPOSIT_RECHECK_MS wait).
    const depth = BigInt(Math.max(1, config.confirmations));
    const head =
      depth > 1n ? await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 })) : undefined;
    const confirmedBlock = head === undefined ? undefined : head - depth + 1n >= 0n ? head - depth + 1n : 0n;
    const confirmed = await balanceAt(client, o.depositToken, plan.origin.address, confirmedBlock);
    if (confirmed >= o.depositAmount) {
      // A hash given by ExecuteIntent after this step loaded the intent (the deposit watcher started it):
      // a native deposit has no log to find it by otherwise.
      const given =
        intent.depositTransactionHash ??
        (await ctx.store.intents.getForEngine(intent.intentId))?.depositTransactionHash ??
        null;
      const found = await depositTransaction(given as Hex | null);
      const succeeded = {
        ...row,
        status: 'SUCCEEDED' as const,
        // A deposit seen before the intent was committed carried a note on what would happen to it.
        statusReason: null,
        ...(found && { txnHash: found.hash, minedAt: found.minedAt, fromAddress: found.from }),
      };
      // With its transaction found, the row commits with this completion (one statement on Postgres).
      if (found) return { kind: 'done', next: ['origin'], row: { kind: 'deposit', write: succeeded } };
      await writeRow(ctx.store, intent.intentId, 'deposit', succeeded);
      // ExecuteIntent may have written its hash after the read above and looked at the row before the
      // write above: one of the two sides has to see the other (given-deposit-hash.ts), so look now.
      await recordGivenDepositHash(ctx, {
        intentId: intent.intentId,
        chainId: Number(o.chainId),
        originAddress: plan.origin.address,
        depositToken: o.depositToken,
      });
      return { kind: 'done', next: ['origin'] };
    }
    // Short: already executed (a re-run after the origin step swept it)? The deposit was counted then.
    if ((await readAccountState(client, plan.origin.address)) === 'executed')
      return { kind: 'done', next: ['origin'] };

    const gasless = await gaslessDepositStep(ctx, { intent, plan });
    if (gasless) return gasless;
    const now = await chainNow(client);
    if (now >= o.deadline) {
      throw new DeadlinePassedError('no full deposit arrived before the origin deadline', {
        details: { required: o.depositAmount, confirmed, deadline: o.deadline },
      });
    }
    if (confirmed > 0n && now + SHORT_DEPOSIT_RETRY_WINDOW_SECONDS >= o.deadline) {
      await failShortDeposit(ctx, { intent, plan }, confirmed);
      return { kind: 'done', next: [] };
    }
    const latest =
      confirmedBlock === undefined ? confirmed : await balanceAt(client, o.depositToken, plan.origin.address);
    const seen = latest >= o.depositAmount;
    // No hash here: the one ExecuteIntent was given is shown only once it is known to pay the address
    // (ExecuteIntent writes a mined one it checked; the SUCCEEDED write above checks the rest).
    await writeRow(ctx.store, intent.intentId, 'deposit', { ...row, status: seen ? 'MINING' : 'PENDING' });
    const reason = seen
      ? `deposit seen, waiting for ${config.confirmations} confirmation(s)`
      : `deposit ${latest} of ${o.depositAmount} required`;
    return { kind: 'wait', afterMs: DEPOSIT_RECHECK_MS, reason };

    /**
     * The deposit transaction: the hash given to ExecuteIntent if, at the depth counted, it paid the
     * address (deposit-payment.ts: another payment named there is never shown), else the last Transfer.
     */
    async function depositTransaction(given: Hex | null) {
      if (given) {
        const payment = await readDepositPayment(client, given, {
          to: plan.origin.address,
          token: o.depositToken,
        }).catch(() => undefined);
        if (
          payment?.state === 'paid' &&
          (confirmedBlock === undefined || payment.blockNumber <= confirmedBlock)
        ) {
          return { hash: given, from: payment.from, minedAt: payment.minedAt };
        }
      }
      // Native deposits leave no log before the account exists: the hash stays empty (docs/engine.md).
      if (o.depositToken === zeroAddress) return undefined;
      const toBlock =
        confirmedBlock ?? (await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 })));
      const transfer = await findTransferTo(client, o.depositToken, plan.origin.address, toBlock);
      if (!transfer) return undefined;
      return { hash: transfer.hash, from: transfer.from, minedAt: await blockTime(transfer.blockNumber) };
    }

    async function blockTime(blockNumber: bigint): Promise<Date> {
      const block = await withChainErrors(() => client.getBlock({ blockNumber }));
      return new Date(Number(block.timestamp) * 1000);
    }
  },
  async giveUp(ctx, { intent, plan }, reason) {
    await writeRow(ctx.store, intent.intentId, 'deposit', {
      chainId: Number(plan.origin.intent.chainId),
      status: 'FAILED',
      statusReason: reason,
    });
  },
};

/**
 * The deposit is still short near the origin deadline: FAILED, and the row says what the owner can do. The
 * origin-refund step journaled at the start still returns what the address holds after the deadline.
 */
async function failShortDeposit(
  ctx: EngineContext,
  { intent, plan }: StepInput,
  held: bigint,
): Promise<void> {
  const o = plan.origin.intent;
  const { config } = ctx.chain(o.chainId);
  const amounts = (amount: bigint) => describeAmounts(config, [{ token: o.depositToken, amount }]);
  await writeRow(ctx.store, intent.intentId, 'deposit', {
    chainId: Number(o.chainId),
    status: 'FAILED',
    statusReason:
      `the deposit is short: ${amounts(held)} arrived, ${amounts(o.depositAmount)} required. Send the other ` +
      `${amounts(o.depositAmount - held)} to ${plan.origin.address} and call RetryIntent with that transaction ` +
      `before the origin deadline ${o.deadline} (chain time); otherwise everything the address holds is ` +
      'returned to the owner after it',
  });
  await ctx.store.intents.updateStatus({ intentId: intent.intentId, to: 'FAILED' });
}
