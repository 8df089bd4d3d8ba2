/**
 * AbortIntent: the owner reports that they cancelled the intent on-chain (IntentAccount.refund before the
 * deadline, which only the owner may do, or an owner-signed recovery with `cancelIntent`, which anyone may
 * send; both emit `Cancelled(intentHash)`). The transaction is checked on the named chain: mined, successful,
 * and carrying `Cancelled` from this intent's account with this intent's hash. Then the refund row records
 * what it returned (Refunded or Recovered, read as the engine's refunds read them) and the intent becomes
 * ABORTED. Repeats answer ABORTED.
 */
import { type Address, type Hex, isAddressEqual, parseEventLogs, type TransactionReceipt } from 'viem';
import { intentAccountAbi } from '../../contracts/abis.generated.ts';
import { mainReturn, refundOutcome } from '../../engine/refunds/account-events.ts';
import { ChainNotSupportedError, InvalidInputError } from '../../internal/errors.ts';
import type { IntentRecord } from '../../store/index.ts';
import { IntentNotFoundError, WrongStatusError } from '../errors.ts';
import { decodePlan } from '../plan-codec.ts';
import type { IntentServices, IntentServicesDeps } from './types.ts';

interface Account {
  address: Address;
  hash: Hex;
  depositToken: Address;
}

export function createAbortIntent(deps: IntentServicesDeps): IntentServices['abort'] {
  const { store } = deps;
  return async ({ intentId: rawId, chainId, abortTransactionHash }, projectId) => {
    const intentId = rawId.toLowerCase();
    const record = await store.intents.get({ projectId, intentId });
    if (!record) throw new IntentNotFoundError(rawId);
    if (record.status === 'ABORTED') return { intentId: record.intentId, status: 'ABORTED' };
    if (record.status !== 'QUOTED' && record.status !== 'COMMITTED' && record.status !== 'EXECUTING') {
      throw new WrongStatusError(
        `intent ${record.intentId} cannot be aborted: it is ${record.status}`,
        record.status,
      );
    }
    const account = accountOn(record, chainId);
    const client = deps.clients.get(chainId);
    if (!client) throw new ChainNotSupportedError('chainId', chainId);
    const hash = abortTransactionHash as Hex;
    const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
    if (!receipt) {
      throw new InvalidInputError(
        'abortTransactionHash',
        `transaction ${hash} is not mined on chain ${chainId} (yet); call AbortIntent again once it is`,
      );
    }
    checkCancellation(receipt, account);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const returned = mainReturn(refundOutcome(receipt, account.address), account.depositToken);
    await store.transactions.upsert({
      intentId,
      kind: 'refund',
      chainId,
      status: 'SUCCEEDED',
      fromAddress: receipt.from,
      toAddress: returned?.to ?? record.ownerAddress,
      tokenAddress: returned?.token ?? account.depositToken,
      tokenAmount: returned?.amount ?? 0n,
      txnHash: hash,
      minedAt: new Date(Number(block.timestamp) * 1000),
    });
    const moved = await store.intents.updateStatus({ intentId, to: 'ABORTED' });
    return { intentId: record.intentId, status: moved.status ?? 'ABORTED' };
  };
}

/** The intent account on this chain: the origin's, or the destination's for a cross-chain intent. */
function accountOn(record: IntentRecord, chainId: number): Account {
  if (!record.planJson) {
    throw new WrongStatusError(
      `intent ${record.intentId} has no stored plan to check a cancellation against`,
      record.status,
    );
  }
  const plan = decodePlan(record.planJson);
  for (const planned of [plan.origin, plan.destination]) {
    if (planned && Number(planned.intent.chainId) === chainId) {
      return { address: planned.address, hash: planned.hash, depositToken: planned.intent.depositToken };
    }
  }
  throw new InvalidInputError(
    'chainId',
    `intent ${record.intentId} has no intent account on chain ${chainId}`,
  );
}

function checkCancellation(receipt: TransactionReceipt, account: Account): void {
  if (receipt.status !== 'success') {
    throw new InvalidInputError('abortTransactionHash', `transaction ${receipt.transactionHash} reverted`);
  }
  const cancelled = parseEventLogs({
    abi: intentAccountAbi,
    eventName: 'Cancelled',
    logs: receipt.logs,
  }).some(
    (log) =>
      isAddressEqual(log.address, account.address) &&
      log.args.intentHash.toLowerCase() === account.hash.toLowerCase(),
  );
  if (!cancelled) {
    throw new InvalidInputError(
      'abortTransactionHash',
      `transaction ${receipt.transactionHash} does not cancel intent account ${account.address} (no Cancelled event for this intent)`,
    );
  }
}
