/**
 * YieldCreateEnterAction on the wire: the yield service's approve and deposit calls as unsigned
 * transactions, in the spec's form (`payload.transactions[]` with `to`, `data`, `value`) and the 0.18.4
 * client's (`action.transactions[].unsignedTransaction`), with the amount in whole tokens and in base units.
 */
import { formatUnits } from 'viem';
import type { EnterAction, YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { actionStep, unsignedTransaction } from './to-wire-action.ts';

export function createYieldCreateEnterAction(service: YieldService): Handler<'YieldCreateEnterAction'> {
  return async (input) => toWire(await service.createEnterAction(input));
}

function toWire(action: EnterAction) {
  const { market, metadata, amount } = action;
  const approve = unsignedTransaction(action.approve, action.wallet, market);
  const deposit = unsignedTransaction(action.deposit, action.wallet, market);
  const lending = market.type === 'lending';
  const summary = {
    marketId: market.id,
    chainId: String(market.chainId),
    amount: formatUnits(amount, metadata.asset.decimals),
    amountRaw: amount.toString(),
    tokenAddress: metadata.asset.address,
    vaultAddress: market.vault,
    receiverAddress: action.receiver,
  };
  return {
    payload: { ...summary, transactions: [approve, deposit] },
    action: {
      intent: 'enter',
      type: lending ? 'LEND' : 'DEPOSIT',
      status: 'CREATED',
      ...summary,
      transactions: [
        actionStep(
          'enter',
          0,
          { type: 'APPROVAL', title: `Approve ${metadata.asset.symbol}` },
          market,
          approve,
        ),
        actionStep(
          'enter',
          1,
          { type: lending ? 'SUPPLY' : 'DEPOSIT', title: `Deposit into ${market.name ?? metadata.name}` },
          market,
          deposit,
        ),
      ],
    },
  };
}
