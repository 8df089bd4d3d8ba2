/**
 * RetryIntent: a FAILED intent runs again with a replacement deposit, e.g. a short deposit that the owner
 * topped up (docs/engine.md: a deposit still short near the origin deadline fails the intent). The named
 * transaction must be mined and pay the origin address the deposit token (the check ExecuteIntent makes,
 * src/engine/deposit-payment.ts), the address must now hold the whole deposit, and the origin account must
 * still be able to execute (not executed or cancelled, before its deadline). Then the engine runs it again
 * from its deposit step; the answer is the status after that (EXECUTING).
 */
import type { Address, Hex } from 'viem';
import { balanceAt, chainNow, readAccountState } from '../../engine/chain-reads.ts';
import { readDepositPayment } from '../../engine/deposit-payment.ts';
import type { IntentStatus } from '../../store/index.ts';
import { RecoveryStatusError, RetryDepositRejectedError, RetryWindowClosedError } from './errors.ts';
import { loadIntent } from './intent-accounts.ts';
import type { RecoveryDeps, RetryInput } from './types.ts';

const FIELD = 'depositTransactionHash';

export function createRetryIntent(deps: RecoveryDeps) {
  return async (
    input: RetryInput,
    projectId: number,
  ): Promise<{ intentId: string; intentStatus: IntentStatus }> => {
    const loaded = await loadIntent(deps, projectId, input.intentId);
    const { record } = loaded;
    if (record.status !== 'FAILED') throw notFailed(record.intentId, record.status);
    const origin = loaded.accounts[0]!;
    const o = origin.intent;
    const client = deps.clients.get(Number(o.chainId))!;
    const hash = input.depositTransactionHash as Hex;
    const payment = await readDepositPayment(client, hash, { to: origin.address, token: o.depositToken });
    if (payment.state === 'unmined') {
      throw new RetryDepositRejectedError(
        FIELD,
        `transaction ${hash} is not mined on chain ${o.chainId} (yet); call RetryIntent again once it is`,
      );
    }
    if (payment.state === 'foreign') throw new RetryDepositRejectedError(FIELD, payment.reason);
    const [state, now, held] = await Promise.all([
      readAccountState(client, origin.address),
      chainNow(client),
      balanceAt(client, o.depositToken, origin.address),
    ]);
    if (state !== 'none' || now >= o.deadline)
      throw closed(record.intentId, origin.address, state, o.deadline);
    if (held < o.depositAmount) {
      throw new RetryDepositRejectedError(
        FIELD,
        `after it the intent address ${origin.address} holds ${held} of the ${o.depositAmount} required (base units of ${o.depositToken}); send the rest and call RetryIntent again`,
      );
    }
    await deps.engine.retryExecution({ intentId: record.intentId, depositTransactionHash: hash });
    const current = await deps.store.intents.get({ projectId, intentId: record.intentId });
    return { intentId: record.intentId, intentStatus: current?.status ?? record.status };
  };
}

function notFailed(intentId: string, status: IntentStatus): RecoveryStatusError {
  const what: Partial<Record<IntentStatus, string>> = {
    QUOTED: 'commit and execute it instead',
    COMMITTED: 'call ExecuteIntent with its deposit instead',
    EXECUTING: 'it is still running; a top-up of a short deposit is picked up without RetryIntent',
    SUCCEEDED: 'it has already succeeded; a second deposit is recoverable with PrepareIntentRecovery',
  };
  const hint = what[status] ?? 'recover what its addresses hold with PrepareIntentRecovery';
  return new RecoveryStatusError(
    `intent ${intentId} is ${status}: RetryIntent runs only a FAILED intent again; ${hint}`,
    status,
  );
}

function closed(intentId: string, address: Address, state: string, deadline: bigint): RetryWindowClosedError {
  const why =
    state === 'none'
      ? `its origin deadline (chain time ${deadline}) has passed`
      : `its origin account ${address} is ${state}`;
  return new RetryWindowClosedError(
    `intent ${intentId} cannot run again: ${why}; what its address holds is returned to the owner (or recover it with PrepareIntentRecovery), and a new quote is needed`,
    { details: { intentId, deadline: deadline.toString() } },
  );
}
