/**
 * PrepareIntentRecovery on the wire: the request as the recovery services take it; the recoverable balances
 * as the reference's IntentTokenBalance (amounts as decimal strings, USD when priced). Switchyard has one
 * intent protocol, answered as `v1`.
 */
import type { RecoverableBalance, RecoveryServices } from '../../../intents/recovery/index.ts';
import type { Handler } from '../../context.ts';

/** The one intent protocol (contracts tag `Switchyard.Intent.v1`), in the reference's enum spelling. */
export const INTENT_PROTOCOL = 'v1';

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
