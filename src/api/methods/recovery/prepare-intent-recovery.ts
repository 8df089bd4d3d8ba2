/**
 * PrepareIntentRecovery on the wire: the request as the recovery services take it; the recoverable balances
 * as the reference's IntentTokenBalance (amounts as decimal strings, USD when priced), with the one intent
 * protocol (intent-protocol.ts).
 */
import type { RecoverableBalance, RecoveryServices } from '../../../intents/recovery/index.ts';
import type { Handler } from '../../context.ts';
import { INTENT_PROTOCOL } from '../intent-protocol.ts';

export function createPrepareIntentRecovery(recovery: RecoveryServices): Handler<'PrepareIntentRecovery'> {
  return async (input, ctx) => {
    const prepared = await recovery.prepare(input, ctx.projectId!);
    return {
      intentId: prepared.intentId,
      intentProtocol: INTENT_PROTOCOL,
      intentAddress: prepared.intentAddress,
      chainId: prepared.chainId,
      intentSource: prepared.intentSource,
      recoveryTokens: prepared.recoverable.map(tokenBalance),
      payload: prepared.payload,
      typedData: prepared.typedData,
      payloadHash: prepared.payloadHash,
    };
  };
}

function tokenBalance(b: RecoverableBalance) {
  return {
    contractAddress: b.token,
    balance: b.amount.toString(),
    decimals: b.decimals,
    chainId: b.chainId,
    symbol: b.symbol,
    ...(b.priceUsd !== undefined && { priceUsd: String(b.priceUsd) }),
    ...(b.valueUsd !== undefined && { balanceUsd: String(b.valueUsd) }),
  };
}
