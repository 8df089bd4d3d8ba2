/**
 * YieldCreateExitAction on the wire: the yield service's one redeem or withdraw call as an unsigned
 * transaction, in the same two forms as the enter action (`payload.transactions[]` and
 * `action.transactions[].unsignedTransaction`). `amount`/`amountRaw` are the underlying the receiver gets
 * (for a redeem, at the share price now: it only grows until the call is mined, for a vault that earns);
 * `shareAmountRaw` the shares it burns.
 */
import { formatUnits } from 'viem';
import type { ExitAction, YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { actionStep, unsignedTransaction } from './to-wire-action.ts';

export function createYieldCreateExitAction(service: YieldService): Handler<'YieldCreateExitAction'> {
  return async (input) => toWire(await service.createExitAction(input));
}

function toWire(action: ExitAction) {
  const { market, metadata, amount, shares } = action;
  const transaction = unsignedTransaction(action.call, action.wallet, market);
  const summary = {
    marketId: market.id,
    chainId: String(market.chainId),
    amount: formatUnits(amount, metadata.asset.decimals),
    amountRaw: amount.toString(),
    shareAmount: formatUnits(shares, metadata.decimals),
    shareAmountRaw: shares.toString(),
    method: action.kind,
    tokenAddress: metadata.asset.address,
    vaultAddress: market.vault,
    receiverAddress: action.receiver,
  };
  const name = market.name ?? metadata.name;
  const title = action.kind === 'redeem' ? `Redeem all shares of ${name}` : `Withdraw from ${name}`;
  return {
    payload: { ...summary, transactions: [transaction] },
    action: {
      intent: 'exit',
      type: market.type === 'lending' ? 'UNLEND' : 'WITHDRAW',
      status: 'CREATED',
      ...summary,
      transactions: [actionStep('exit', 0, { type: 'WITHDRAW', title }, market, transaction)],
    },
  };
}
