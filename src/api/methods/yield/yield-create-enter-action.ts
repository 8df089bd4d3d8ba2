/**
 * YieldCreateEnterAction on the wire: the yield service's approve and deposit calls as unsigned
 * transactions, in the spec's form (`payload.transactions[]` with `to`, `data`, `value`) and the 0.18.4
 * client's (`action.transactions[].unsignedTransaction`), with the amount in whole tokens and in base units.
 */
import { type Address, formatUnits, type Hex } from 'viem';
import type { EnterAction, MarketConfig, WalletCall, YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';

export interface UnsignedTransaction {
  to: Address;
  data: Hex;
  /** Native value in wei, a decimal string: always "0", vaults take the ERC-20. */
  value: string;
  from: Address;
  chainId: string;
}

export function createYieldCreateEnterAction(service: YieldService): Handler<'YieldCreateEnterAction'> {
  return async (input) => toWire(await service.createEnterAction(input));
}

function toWire(action: EnterAction) {
  const { market, metadata, amount } = action;
  const tx = (call: WalletCall): UnsignedTransaction => ({
    to: call.to,
    data: call.data,
    value: '0',
    from: action.wallet,
    chainId: String(market.chainId),
  });
  const approve = tx(action.approve);
  const deposit = tx(action.deposit);
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
      type: market.type === 'lending' ? 'LEND' : 'DEPOSIT',
      status: 'CREATED',
      ...summary,
      transactions: [
        step(0, 'APPROVAL', `Approve ${metadata.asset.symbol}`, market, approve),
        step(
          1,
          market.type === 'lending' ? 'SUPPLY' : 'DEPOSIT',
          `Deposit into ${market.name ?? metadata.name}`,
          market,
          deposit,
        ),
      ],
    },
  };
}

function step(
  index: number,
  type: string,
  title: string,
  market: MarketConfig,
  unsignedTransaction: UnsignedTransaction,
) {
  return {
    id: `${market.id}-enter-${index}`,
    stepIndex: index,
    type,
    title,
    status: 'CREATED',
    network: market.network,
    chainId: String(market.chainId),
    unsignedTransaction,
  };
}
