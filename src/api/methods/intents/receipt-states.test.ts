/**
 * The states a held WaitIntentReceipt compares on its stored rows (the intent services') are the states of
 * the receipt it answers with (the API's), read back in the store's spelling, for any mix of transactions,
 * statuses and either dialect.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedReceiptStates } from '../../../intents/services/receipt-states.ts';
import {
  type IntentReceiptRecord,
  type IntentTransactionRecord,
  TRANSACTION_STATUSES,
  type TransactionKind,
} from '../../../store/index.ts';
import { receiptToWire } from '../reads/to-wire.ts';
import { inStoreSpelling, receiptStates } from './receipt-states.ts';

const ADDRESS = '0x00000000000000000000000000000000000000aa';
const at = new Date('2026-11-24T12:00:00Z');

const intent: IntentReceiptRecord['intent'] = {
  id: 1,
  intentId: `0x${'11'.repeat(32)}`,
  projectId: 1,
  status: 'EXECUTING',
  ownerAddress: ADDRESS,
  originChainId: 1,
  destinationChainId: 2,
  originIntentAddress: ADDRESS,
  destinationIntentAddress: ADDRESS,
  originTokenAddress: ADDRESS,
  originTokenAmount: 1n,
  destinationTokenAddress: ADDRESS,
  destinationTokenAmount: 1n,
  intent: {},
  quoteExpiresAt: at,
  committedAt: null,
  executeDeadline: null,
  depositTransactionHash: null,
  createdAt: at,
  updatedAt: at,
  startedAt: null,
  finishedAt: null,
};

function row(kind: TransactionKind, status: IntentTransactionRecord['status']): IntentTransactionRecord {
  return {
    id: 1,
    intentId: intent.intentId,
    kind,
    chainId: 1,
    fromAddress: null,
    toAddress: null,
    tokenAddress: null,
    tokenAmount: null,
    status,
    statusReason: null,
    txnHash: null,
    calldata: null,
    minedAt: null,
    meta: null,
    createdAt: at,
    updatedAt: at,
  };
}

const maybeStatus = fc.option(fc.constantFrom(...TRANSACTION_STATUSES), { nil: undefined });

describe('storedReceiptStates', () => {
  it("equals the answered receipt's receiptStates for any rows, in both dialects", () => {
    fc.assert(
      fc.property(
        fc.record({
          deposit: maybeStatus,
          origin: maybeStatus,
          destination: maybeStatus,
          refund: maybeStatus,
        }),
        fc.constantFrom('Service' as const, 'Trails' as const),
        (statuses, dialect) => {
          const transactions: IntentReceiptRecord['transactions'] = {};
          for (const [kind, status] of Object.entries(statuses) as [
            TransactionKind,
            typeof statuses.deposit,
          ][])
            if (status) transactions[kind] = row(kind, status);
          const record = { intent, transactions };
          const chainById = new Map();
          expect(storedReceiptStates(record)).toEqual(
            inStoreSpelling(receiptStates(receiptToWire({ chainById }, record, dialect))),
          );
        },
      ),
    );
  });

  it('are spelled with RELAYED as SENT on /rpc/Trails, and read back in either spelling', () => {
    const record = {
      intent,
      transactions: { deposit: row('deposit', 'SUCCEEDED'), origin: row('origin', 'RELAYED') },
    };
    const chainById = new Map();
    const trails = receiptStates(receiptToWire({ chainById }, record, 'Trails'));
    expect(trails).toEqual(['SUCCEEDED', 'SENT', 'UNKNOWN']);
    expect(receiptStates(receiptToWire({ chainById }, record, 'Service'))).toEqual([
      'SUCCEEDED',
      'RELAYED',
      'UNKNOWN',
    ]);
    expect(inStoreSpelling(trails)).toEqual(storedReceiptStates(record));
  });
});
