/**
 * Executes a plan by hand with the devnet's role accounts, in the order the engine will:
 * user deposits to the origin address → relayer `deployIfNeededAndExecute(origin)` → (cross-chain) solver
 * `DestinationSettler.fill` from its inventory → relayer executes the destination intent → attester signs the
 * fill → relayer `OriginSettler.settle` repays the solver.
 */
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import { intentAccountAbi, originSettlerAbi } from '../../../../src/contracts/abis.generated.ts';
import { fillAttestationTypedData } from '../../../../src/contracts/attestation.ts';
import {
  encodeDeployIfNeededAndExecute,
  encodeFill,
  encodeFillProof,
  encodeSettle,
} from '../../../../src/contracts/calldata.ts';
import { computeOrderId } from '../../../../src/contracts/order-id.ts';
import type { OrderData } from '../../../../src/contracts/types.ts';
import type { DevnetRole } from '../../../../src/devnet/constants.ts';
import { withGasMargin } from '../../../../src/devnet/send-and-wait.ts';
import type { ExecutionPlan } from '../../../../src/intents/plan/types.ts';
import type { TestDevnet, TestDevnetChain } from '../../../harness/devnet.ts';

export interface PlanRun {
  deposit: TransactionReceipt;
  origin: TransactionReceipt;
  /** The order as OriginSettler recorded it (cross-chain only). */
  order?: OrderData;
  fill?: TransactionReceipt;
  destination?: TransactionReceipt;
  settle?: TransactionReceipt;
  /** Whether each account's calls succeeded (destination calls can fail and refund). */
  originSucceeded: boolean;
  destinationSucceeded?: boolean;
}

export function chainOf(net: TestDevnet, chainId: bigint | number): TestDevnetChain {
  const chain = net.chains.find((c) => c.entry.chainId === Number(chainId));
  if (!chain) throw new Error(`no devnet chain ${chainId}`);
  return chain;
}

async function send(
  chain: TestDevnetChain,
  role: DevnetRole,
  tx: { to: Address; data?: `0x${string}`; value?: bigint },
): Promise<TransactionReceipt> {
  const wallet = chain.walletFor(role);
  // viem's own limit is the bare estimate, which a vault deposit can outgrow by the next second's block.
  const estimate = await chain.publicClient.estimateGas({ account: wallet.account, ...tx });
  const hash = await wallet.sendTransaction({ ...tx, gas: withGasMargin(estimate) });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${role} transaction to ${tx.to} reverted`);
  return receipt;
}

function executed(receipt: TransactionReceipt): boolean {
  const events = parseEventLogs({ abi: intentAccountAbi, eventName: 'Executed', logs: receipt.logs });
  if (events.length !== 1) throw new Error(`expected one Executed event, got ${events.length}`);
  return events[0]!.args.callsSucceeded;
}

/** Runs every step; `extraDeposit` is sent on top of the committed deposit (it must come back). */
export async function runPlan(net: TestDevnet, plan: ExecutionPlan, extraDeposit = 0n): Promise<PlanRun> {
  const originIntent = plan.origin.intent;
  const origin = chainOf(net, originIntent.chainId);
  const amount = originIntent.depositAmount + extraDeposit;
  const deposit =
    originIntent.depositToken === zeroAddress
      ? await send(origin, 'user', { to: plan.origin.address, value: amount })
      : await send(origin, 'user', {
          to: originIntent.depositToken,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [plan.origin.address, amount],
          }),
        });
  const factory = origin.entry.contracts.intentFactory;
  const originReceipt = await send(origin, 'relayer', {
    to: factory,
    data: encodeDeployIfNeededAndExecute(originIntent),
  });
  const run: PlanRun = { deposit, origin: originReceipt, originSucceeded: executed(originReceipt) };
  if (!plan.destination || !plan.order) return run;

  const opened = parseEventLogs({
    abi: originSettlerAbi,
    eventName: 'OrderOpened',
    logs: originReceipt.logs,
  });
  const order = opened[0]!.args.orderData as OrderData;
  run.order = order;
  const dest = chainOf(net, plan.destination.intent.chainId);
  const solver = net.devnet.accounts.solver!.address;
  const originChainId = BigInt(origin.entry.chainId);
  const originSettler = origin.entry.contracts.originSettler;
  await send(dest, 'solver', {
    to: order.outputToken,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [dest.entry.contracts.destinationSettler, maxUint256],
    }),
  });
  run.fill = await send(dest, 'solver', {
    to: dest.entry.contracts.destinationSettler,
    data: encodeFill(order, originChainId, originSettler, solver),
  });
  run.destination = await send(dest, 'relayer', {
    to: dest.entry.contracts.intentFactory,
    data: encodeDeployIfNeededAndExecute(plan.destination.intent),
  });
  run.destinationSucceeded = executed(run.destination);

  const orderId = computeOrderId(order, originChainId, originSettler);
  const signature = await origin.walletFor('attester').signTypedData(
    fillAttestationTypedData({
      verifier: origin.entry.contracts.fillVerifier,
      originChainId,
      destChainId: BigInt(dest.entry.chainId),
      destSettler: dest.entry.contracts.destinationSettler,
      orderId,
      filler: solver,
      repaymentAddr: solver,
    }),
  );
  run.settle = await send(origin, 'relayer', {
    to: originSettler,
    data: encodeSettle(order, solver, encodeFillProof(solver, signature)),
  });
  return run;
}
