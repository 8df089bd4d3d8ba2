/**
 * One refund round of an intent account (origin or destination): the relayer sends
 * `factory.deployIfNeededAndRefund(intent, tokens, native)` with every token the account holds, through the
 * transaction sender (journaled under `purpose`, resumed, never re-signed). A reverted refund is an error.
 */
import { zeroAddress } from 'viem';
import type { SentTransaction } from '../../chains/create-transaction-sender.ts';
import { TransactionRevertedError } from '../../chains/errors.ts';
import { encodeDeployIfNeededAndRefund } from '../../contracts/calldata.ts';
import type { Intent } from '../../contracts/types.ts';
import type { EngineContext } from '../context.ts';
import type { HeldBalance } from './held-balances.ts';

export async function sendAccountRefund(
  ctx: EngineContext,
  refund: {
    intentId: string;
    account: Intent;
    /** 'origin' or 'destination', for the error message. */
    side: string;
    purpose: string;
    held: readonly HeldBalance[];
  },
): Promise<SentTransaction> {
  const { config } = ctx.chain(refund.account.chainId);
  const sent = await ctx.sender.sendOnce({
    chainId: config.chainId,
    account: ctx.keys.relayer,
    to: config.contracts.intentFactory,
    data: encodeDeployIfNeededAndRefund(
      refund.account,
      refund.held.filter((h) => h.token !== zeroAddress).map((h) => h.token),
      refund.held.some((h) => h.token === zeroAddress),
    ),
    purpose: refund.purpose,
    intentId: refund.intentId,
  });
  if (sent.receipt.status !== 'success') {
    throw new TransactionRevertedError(`the ${refund.side} refund reverted on-chain`, {
      details: { hash: sent.hash },
    });
  }
  return sent;
}
