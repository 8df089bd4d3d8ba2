import type { PublicClient, TransactionSerializable } from 'viem';
import { keccak256 } from '../internal/keccak256.ts';
import type { FeesUnderCap } from './fees-under-cap.ts';
import { withChainErrors } from './map-chain-error.ts';
import { oneWeiBelow } from './one-wei-below.ts';
import { GAS_LIMIT_MARGIN_DENOMINATOR, GAS_LIMIT_MARGIN_NUMERATOR } from './sender-constants.ts';
import type { SigningGate } from './signing-gate.ts';
import type { SignedTransaction, TransactionJournal } from './transaction-journal.ts';
import type { SendRequest } from './transaction-sender-types.ts';
import type { TtlMemo } from './ttl-memo.ts';

/** Simulates, signs at a nonce allocated in the journal and records the signature, before any broadcast. */
export type SignNewTransaction<Row> = (req: SendRequest<Row>) => Promise<SignedTransaction>;

export interface SignNewTransactionDeps<Row> {
  journal: TransactionJournal<Row>;
  clientFor(chainId: number): PublicClient;
  feesUnderCap: FeesUnderCap;
  /** The chain's pending nonce per `chainId:address`, a floor under the journal's own count. */
  nonceFloors: TtlMemo<string, number>;
  gate: SigningGate;
}

export function createNewTransactionSigner<Row>(deps: SignNewTransactionDeps<Row>): SignNewTransaction<Row> {
  const { journal, feesUnderCap, nonceFloors, gate } = deps;
  return async (req) => {
    const client = deps.clientFor(req.chainId);
    const from = req.account.address;
    const ctx = { chainId: req.chainId, purpose: req.purpose, intentId: req.intentId, to: req.to };
    // Simulation: eth_estimateGas executes the call; a revert surfaces as SimulationRevertedError.
    // The three reads are independent: one round trip instead of three on every send.
    const [estimate, fees, pendingNonce] = await Promise.all([
      req.unsimulated
        ? undefined
        : withChainErrors(
            () => client.estimateGas({ account: from, to: req.to, data: req.data, value: req.value ?? 0n }),
            ctx,
          ),
      feesUnderCap(req.chainId, client, ctx),
      nonceFloors.get(`${req.chainId}:${from.toLowerCase()}`, () =>
        withChainErrors(() => client.getTransactionCount({ address: from, blockTag: 'pending' }), ctx),
      ),
    ]);
    const gas =
      estimate === undefined
        ? req.unsimulated!.gasLimit
        : (estimate * GAS_LIMIT_MARGIN_NUMERATOR) / GAS_LIMIT_MARGIN_DENOMINATOR;
    return gate.journalSignature(ctx, () =>
      journal.allocateAndRecord({
        chainId: req.chainId,
        fromAddress: from,
        purpose: req.purpose,
        ...(req.intentId !== undefined && { intentId: req.intentId }),
        ...(req.signedRow && { withRecord: req.signedRow }),
        nonceFloor: pendingNonce,
        sign: async (nonce) => {
          const raw = await req.account.signTransaction!({
            chainId: req.chainId,
            nonce,
            to: req.to,
            data: req.data,
            value: req.value ?? 0n,
            gas,
            ...(req.unsimulated ? oneWeiBelow(fees) : fees),
          } as TransactionSerializable);
          return { raw, hash: keccak256(raw) };
        },
      }),
    );
  };
}
