/**
 * "What happens next", in words, from the intent's status, its receipt and its real deadlines and refund
 * path (the execution plan's, by the chains' clocks; docs/contracts.md "Refund paths"):
 * - before the origin runs: the origin account refunds its deposit to the recipient after the origin deadline;
 * - after the origin locked the funds and before the fill: the origin settler refunds the order after the
 *   fill deadline plus its grace;
 * - after the fill, if the destination call never runs: the destination account refunds after its deadline;
 * - a destination call that fails refunds the owner on the destination chain in the same transaction.
 */
import type { Catalogue } from '../catalogue.ts';
import { formatTime, shortHex } from '../format.ts';
import type { PriceUsd } from '../prices.ts';
import type { IntentDetails, IntentReceipt, IntentTransaction } from '../types.ts';
import { amountText } from './common.ts';

export function nextSteps(
  receipt: IntentReceipt,
  details: IntentDetails | undefined,
  catalogue: Catalogue,
  price: PriceUsd,
): string[] {
  const s = receipt.summary;
  const d = details?.deadlines;
  const recipient = details?.refundRecipient ?? receipt.ownerAddress;
  const to = `${shortHex(recipient)} on ${catalogue.chainName(receipt.originChainId)}`;
  const amount = (chainId: number, token: string, value: string) =>
    amountText({ catalogue, chainId, token, amount: value, priceUsd: price(chainId, token) });
  const deposit = details?.deposit
    ? amount(details.deposit.chainId, details.deposit.tokenAddress, details.deposit.amount)
    : amount(receipt.originChainId, s.originTokenAddress, s.originTokenAmount);
  const originDeadline = d ? formatTime(d.originDeadline) : 'the origin deadline';

  switch (receipt.status) {
    case 'QUOTED':
      return [
        `The quote can be committed until ${formatTime(s.expiresAt)}.`,
        `A deposit sent to ${shortHex(s.originIntentAddress)} without a commit goes back to ${to} after ${originDeadline}.`,
      ];
    case 'COMMITTED':
      return [
        `Waiting for the deposit of ${deposit} to ${shortHex(s.originIntentAddress)} on ${catalogue.chainName(receipt.originChainId)}.`,
        `If it has not arrived by ${originDeadline}, the intent fails, and whatever reaches the address goes back to ${to}.`,
      ];
    case 'EXECUTING':
      return executing(receipt, details, catalogue, amount, deposit, to);
    case 'SUCCEEDED': {
      const dest = receipt.destinationTransaction ?? receipt.originTransaction;
      // The row's `to` is the account the relayer executed; the person's recipient is in the summary.
      const recipient = s.destinationToAddress ?? dest.toAddress;
      return [
        `Nothing more will happen: ${amount(dest.chainId, dest.tokenAddress, dest.tokenAmount)} reached ${shortHex(recipient)} on ${catalogue.chainName(dest.chainId)} at ${formatTime(dest.txnMinedAt ?? s.finishedAt)}.`,
      ];
    }
    case 'REFUNDED':
    case 'FAILED':
    case 'ABORTED':
      return finished(receipt, details, catalogue, amount, to);
    default:
      return [`The intent is ${receipt.status}.`];
  }
}

type AmountOf = (chainId: number, token: string, value: string) => string;

function executing(
  receipt: IntentReceipt,
  details: IntentDetails | undefined,
  catalogue: Catalogue,
  amount: AmountOf,
  deposit: string,
  to: string,
): string[] {
  const d = details?.deadlines;
  if (receipt.originTransaction.status !== 'SUCCEEDED') {
    return [
      `If the origin transaction does not run by ${d ? formatTime(d.originDeadline) : 'the origin deadline'}, ${deposit} go back to ${to}.`,
    ];
  }
  const order = details?.order;
  if (!order || !d?.fillDeadline) return ['The destination transaction is on its way.'];
  const destination = `${shortHex(details?.refundRecipient ?? receipt.ownerAddress)} on ${catalogue.chainName(order.destinationChainId)}`;
  return [
    `If the fill does not happen by ${formatTime(d.fillDeadline)}, ${amount(order.originChainId, order.inputToken, order.inputAmount)} go back to ${to} (the origin settler's refund opens at ${formatTime(d.settlementRefundAt)}).`,
    `Once filled, if the destination call does not run by ${formatTime(d.destinationDeadline)}, ${amount(order.destinationChainId, order.outputToken, order.outputAmount)} go back to ${destination}.`,
  ];
}

function finished(
  receipt: IntentReceipt,
  details: IntentDetails | undefined,
  catalogue: Catalogue,
  amount: AmountOf,
  to: string,
): string[] {
  const refund = receipt.refundTransaction;
  const failure = [
    receipt.destinationTransaction,
    receipt.originTransaction,
    receipt.depositTransaction,
  ].find((t): t is IntentTransaction => t?.status === 'FAILED' && Boolean(t.statusReason));
  const lines: string[] = [];
  if (receipt.status === 'ABORTED') lines.push('The owner cancelled the intent on-chain.');
  if (failure) lines.push(`Why: ${failure.statusReason}.`);
  if (refund?.txnHash) {
    const block = details?.transactions.find(
      (t) => t.hash === refund.txnHash && t.kind === 'refund',
    )?.blockNumber;
    lines.push(
      `Refunded: ${amount(refund.chainId, refund.tokenAddress, refund.tokenAmount)} went back to ${shortHex(refund.toAddress)} on ${catalogue.chainName(refund.chainId)} in transaction ${shortHex(refund.txnHash)}${block ? ` (block ${block})` : ''} at ${formatTime(refund.txnMinedAt)}. Nothing more will happen.`,
    );
  } else if (receipt.status !== 'ABORTED') {
    lines.push(`Nothing was sent; anything that reaches the intent's address goes back to ${to}.`);
  }
  return lines;
}
