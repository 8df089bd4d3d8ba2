/**
 * The attester: its own component and its own key (never the relayer's). It signs a fill attestation only
 * for a `Filled` event it has read itself from the destination settler, deep enough on that chain, whose
 * amount and recipient match the order.
 */
import {
  type Address,
  getAbiItem,
  type Hex,
  type LocalAccount,
  type PublicClient,
  parseEventLogs,
} from 'viem';
import { RetryLaterError } from '../chains/errors.ts';
import { withChainErrors } from '../chains/map-chain-error.ts';
import { destinationSettlerAbi } from '../contracts/abis.generated.ts';
import { type FillAttestation, fillAttestationTypedData } from '../contracts/attestation.ts';
import { createFillAttestationDigest } from '../contracts/fill-attestation-digest.ts';
import type { OrderData } from '../contracts/types.ts';
import { LOG_LOOKBACK_BLOCKS } from './constants.ts';
import { FillNotFoundError } from './errors.ts';

export interface AttestRequest {
  order: OrderData;
  orderId: Hex;
  originChainId: bigint;
  /** The AttestedFillVerifier on the origin chain (the EIP-712 domain). */
  verifier: Address;
  destClient: PublicClient;
  destConfirmations: number;
  /** Where to look first (the fill transaction), before scanning logs. */
  fillTransactionHash?: Hex;
}

export interface Attestation {
  filler: Address;
  repaymentAddr: Address;
  signature: Hex;
  /** The destination transaction whose Filled event was read. */
  fillTransactionHash: Hex;
}

export interface Attester {
  readonly address: Address;
  attest(request: AttestRequest): Promise<Attestation>;
}

export function createAttester(deps: { account: LocalAccount }): Attester {
  const { account } = deps;
  const digest = createFillAttestationDigest();
  // The same signature either way (EIP-712 digest, deterministic ECDSA); an account that signs only typed
  // data (a remote signer) gets the typed data.
  const sign = (a: FillAttestation) =>
    account.sign ? account.sign({ hash: digest(a) }) : account.signTypedData(fillAttestationTypedData(a));
  return {
    address: account.address,
    async attest(req) {
      const fill = await readFilled(req);
      const signature = await sign({
        verifier: req.verifier,
        originChainId: req.originChainId,
        destChainId: req.order.destChainId,
        destSettler: req.order.destSettler,
        orderId: req.orderId,
        filler: fill.filler,
        repaymentAddr: fill.repaymentAddr,
      });
      return { ...fill, signature };
    },
  };
}

async function readFilled(req: AttestRequest): Promise<Omit<Attestation, 'signature'>> {
  const { destClient: client, order } = req;
  const filledEvent = getAbiItem({ abi: destinationSettlerAbi, name: 'Filled' });
  let logs = req.fillTransactionHash
    ? parseEventLogs({
        abi: destinationSettlerAbi,
        eventName: 'Filled',
        logs: (await withChainErrors(() => client.getTransactionReceipt({ hash: req.fillTransactionHash! })))
          .logs,
      })
    : [];
  // Read after the receipt, fresh (viem caches the block number for the client's polling interval, which
  // made a fill just mined look too shallow and cost a retry); a receipt alone is depth 1, no head needed.
  const depth = BigInt(Math.max(1, req.destConfirmations));
  let head: bigint | undefined =
    logs.length > 0 && depth === 1n
      ? undefined
      : await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
  if (logs.length === 0) {
    head ??= await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
    const to = head;
    logs = await withChainErrors(() =>
      client.getLogs({
        address: order.destSettler,
        event: filledEvent,
        args: { orderId: req.orderId },
        fromBlock: to > LOG_LOOKBACK_BLOCKS ? to - LOG_LOOKBACK_BLOCKS : 0n,
        toBlock: to,
      }),
    );
  }
  const log = logs.find(
    (l) => l.address.toLowerCase() === order.destSettler.toLowerCase() && l.args.orderId === req.orderId,
  );
  if (!log || log.blockNumber === null || !log.transactionHash) {
    throw new RetryLaterError(`no Filled event for order ${req.orderId} yet`, {
      details: { orderId: req.orderId },
    });
  }
  const { amount, recipient, filler, repaymentAddr } = log.args;
  if (amount !== order.outputAmount || recipient?.toLowerCase() !== order.recipient.toLowerCase()) {
    throw new FillNotFoundError('the Filled event does not match the order: refusing to attest', {
      details: {
        orderId: req.orderId,
        expected: { amount: order.outputAmount, recipient: order.recipient },
        actual: { amount, recipient },
      },
    });
  }
  if (head !== undefined && head - log.blockNumber + 1n < depth) {
    throw new RetryLaterError(`the fill of order ${req.orderId} is not deep enough yet`, {
      details: { block: log.blockNumber, head },
    });
  }
  return {
    filler: filler as Address,
    repaymentAddr: repaymentAddr as Address,
    fillTransactionHash: log.transactionHash,
  };
}
