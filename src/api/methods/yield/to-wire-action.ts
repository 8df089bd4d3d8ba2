/**
 * The parts of an enter or exit action on the wire: each call as an unsigned transaction (the seed spec's
 * `payload.transactions[]` and the 0.18.4 client's `action.transactions[].unsignedTransaction` carry the same
 * objects), and the client's step around it.
 */
import type { Address, Hex } from 'viem';
import type { MarketConfig, WalletCall } from '../../../yield/index.ts';

export interface UnsignedTransaction {
  to: Address;
  data: Hex;
  /** Native value in wei, a decimal string: always "0", vaults take and give the ERC-20. */
  value: string;
  from: Address;
  chainId: string;
}

export function unsignedTransaction(
  call: WalletCall,
  from: Address,
  market: MarketConfig,
): UnsignedTransaction {
  return { to: call.to, data: call.data, value: '0', from, chainId: String(market.chainId) };
}

export function actionStep(
  intent: 'enter' | 'exit',
  index: number,
  step: { type: string; title: string },
  market: MarketConfig,
  transaction: UnsignedTransaction,
) {
  return {
    id: `${market.id}-${intent}-${index}`,
    stepIndex: index,
    type: step.type,
    title: step.title,
    status: 'CREATED',
    network: market.network,
    chainId: String(market.chainId),
    unsignedTransaction: transaction,
  };
}
