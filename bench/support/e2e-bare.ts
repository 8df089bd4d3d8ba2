/**
 * The bare chain time of one intent: the same four transactions the service would send, sent directly
 * one after the other with the devnet's keys: the user's deposit, the relayer's origin execution, the
 * solver's fill, the relayer's destination execution. No store, no journal, no checks beyond the
 * receipts: the floor the service is compared with.
 */
import type { Account, Address } from 'viem';
import { encodeDeployIfNeededAndExecute, encodeFill } from '../../src/contracts/calldata.ts';
import { executionOutcome, openedOrder } from '../../src/engine/chain-reads.ts';
import type { ExecutionPlan } from '../../src/intents/plan/types.ts';
import { type BenchChain, type NonceCounter, sendAndWait } from './e2e-chain.ts';
import type { IntentTiming, RawDeposit } from './e2e-timing.ts';

export interface BareOperator {
  relayer: Account;
  solver: Account;
  /** Per chain id: the relayer's and the solver's next nonces (shared by concurrent bare intents). */
  nonces: Map<number, { relayer: NonceCounter; solver: NonceCounter }>;
}

export interface BareIntent {
  user: Account;
  deposit: RawDeposit;
  plan: ExecutionPlan;
}

export async function runBareIntent(
  chains: { origin: BenchChain; destination: BenchChain },
  operator: BareOperator,
  job: BareIntent,
): Promise<IntentTiming> {
  const { origin, destination } = chains;
  const d = job.plan.destination;
  if (!d) throw new Error('the bare run needs a cross-chain plan');
  const nonces = (chainId: number) => {
    const found = operator.nonces.get(chainId);
    if (!found) throw new Error(`no nonce counters for chain ${chainId}`);
    return found;
  };
  const depositSentAt = performance.now();
  const depositReceipt = await sendAndWait(origin, job.user, {
    to: job.deposit.to,
    data: job.deposit.data,
    value: BigInt(job.deposit.value ?? 0),
  });
  const depositMinedAt = performance.now();
  const originReceipt = await sendAndWait(origin, operator.relayer, {
    to: origin.entry.contracts.intentFactory,
    data: encodeDeployIfNeededAndExecute(job.plan.origin.intent),
    nonce: nonces(origin.entry.chainId).relayer.next(),
  });
  const order = openedOrder(originReceipt);
  await sendAndWait(destination, operator.solver, {
    to: order.destSettler,
    data: encodeFill(
      order,
      BigInt(origin.entry.chainId),
      origin.entry.contracts.originSettler as Address,
      operator.solver.address,
    ),
    nonce: nonces(destination.entry.chainId).solver.next(),
  });
  const destinationReceipt = await sendAndWait(destination, operator.relayer, {
    to: destination.entry.contracts.intentFactory,
    data: encodeDeployIfNeededAndExecute(d.intent),
    nonce: nonces(destination.entry.chainId).relayer.next(),
  });
  if (!executionOutcome(destinationReceipt).callsSucceeded)
    throw new Error('bare run: the destination calls failed');
  return {
    depositSentAt,
    depositMinedAt,
    doneAt: performance.now(),
    depositBlock: depositReceipt.blockNumber,
    destinationHash: destinationReceipt.transactionHash,
  };
}
