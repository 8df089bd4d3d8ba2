/**
 * Shared steps of the threat tests #13–#23 (contracts-brief §3): funding the solver, depositing and
 * executing an origin intent, attesting a fill, and reading statuses. Each test file starts its own chains
 * (`useIsolatedTestChains`); this module only holds the steps they repeat.
 */
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import { destinationSettlerAbi, originSettlerAbi } from '../../../src/contracts/abis.generated.ts';
import { fillAttestationTypedData } from '../../../src/contracts/attestation.ts';
import {
  encodeDeployIfNeededAndExecute,
  encodeFill,
  encodeFillProof,
} from '../../../src/contracts/calldata.ts';
import { computeOrderId } from '../../../src/contracts/order-id.ts';
import type { OrderData } from '../../../src/contracts/types.ts';
import { expectRevert, POLLING_INTERVAL_MS, type Role, type TestChain } from '../../harness/chain.ts';
import { openedOrder, type Route } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';

/** One USDC in base units (defined in route.ts with the standard quote). */
export { USDC } from '../route.ts';

/** Mints `amount` of `token` to the solver and approves the destination settler for all of it. */
export async function fundSolver(dest: TestChain, token: Address, amount: bigint): Promise<void> {
  await dest.mint(token, dest.accounts.solver.address, amount);
  await dest.send('solver', {
    to: token,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [dest.contracts.destinationSettler, amount],
    }),
  });
}

/**
 * The settlement tests' chains: two isolated test chains (origin, destination), the solver holding and
 * having approved `inventory` USDC on the destination; every test starts from that state.
 */
export function useSettlementChains(
  chainIds: readonly [number, number],
  inventory: bigint,
  started: (origin: TestChain, dest: TestChain) => void,
): void {
  useIsolatedTestChains(chainIds, async ([origin, dest]) => {
    await fundSolver(dest, dest.tokens.usdc, inventory);
    started(origin, dest);
  });
}

/** ERC-20 `transfer` from a role, waited for. */
export async function transferToken(
  chain: TestChain,
  from: Role,
  token: Address,
  to: Address,
  amount: bigint,
): Promise<TransactionReceipt> {
  return chain.send(from, {
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
  });
}

export interface OpenedRoute {
  order: OrderData;
  orderId: Hex;
  receipt: TransactionReceipt;
}

/**
 * The user deposits exactly `route.origin.depositAmount` USDC to the origin account and the relayer
 * executes it (fee + lock); returns the order as opened. `inputAmount` is what reaches the settler.
 */
export async function depositAndOpen(
  origin: TestChain,
  route: Route,
  inputAmount: bigint,
): Promise<OpenedRoute> {
  const { usdc } = origin.tokens;
  await origin.mint(usdc, origin.accounts.user.address, route.origin.depositAmount);
  await transferToken(origin, 'user', usdc, route.originAccount, route.origin.depositAmount);
  const receipt = await origin.send('relayer', {
    to: origin.contracts.intentFactory,
    data: encodeDeployIfNeededAndExecute(route.origin),
  });
  const order = openedOrder(route, inputAmount);
  const orderId = computeOrderId(order, BigInt(origin.chainId), origin.contracts.originSettler);
  const opened = parseEventLogs({ abi: originSettlerAbi, eventName: 'OrderOpened', logs: receipt.logs });
  if (opened[0]?.args.orderId !== orderId)
    throw new Error('the origin execute did not open the expected order');
  return { order, orderId, receipt };
}

/** The solver fills `order` on the destination, asking to be repaid at `repaymentAddr` on the origin. */
export async function fillOrder(
  origin: TestChain,
  dest: TestChain,
  order: OrderData,
  repaymentAddr: Address,
): Promise<TransactionReceipt> {
  return dest.send('solver', {
    to: dest.contracts.destinationSettler,
    data: encodeFill(order, BigInt(origin.chainId), origin.contracts.originSettler, repaymentAddr),
  });
}

/**
 * A fill proof for `OriginSettler.settle`: the EIP-712 FillAttestation signed by `signer` (the attester,
 * or an impostor such as the relayer key).
 */
export async function attestFill(
  origin: TestChain,
  dest: TestChain,
  p: { orderId: Hex; filler: Address; repaymentAddr: Address; signer?: Role },
): Promise<Hex> {
  const signature = await origin.wallets[p.signer ?? 'attester'].signTypedData(
    fillAttestationTypedData({
      verifier: origin.contracts.fillVerifier,
      originChainId: BigInt(origin.chainId),
      destChainId: BigInt(dest.chainId),
      destSettler: dest.contracts.destinationSettler,
      orderId: p.orderId,
      filler: p.filler,
      repaymentAddr: p.repaymentAddr,
    }),
  );
  return encodeFillProof(p.filler, signature);
}

export async function orderStatusOf(origin: TestChain, orderId: Hex): Promise<number> {
  return origin.publicClient.readContract({
    address: origin.contracts.originSettler,
    abi: originSettlerAbi,
    functionName: 'orderStatus',
    args: [orderId],
  });
}

export async function fillStatusOf(dest: TestChain, orderId: Hex): Promise<number> {
  return dest.publicClient.readContract({
    address: dest.contracts.destinationSettler,
    abi: destinationSettlerAbi,
    functionName: 'fillStatus',
    args: [orderId],
  });
}

export async function allowanceOf(
  chain: TestChain,
  token: Address,
  owner: Address,
  spender: Address,
): Promise<bigint> {
  return chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  });
}

/**
 * Mines one block at exactly `timestamp` on each chain (both chains' clocks move together), so the next
 * `eth_call` sees `block.timestamp == timestamp`.
 */
export async function warpTo(chains: TestChain[], timestamp: bigint): Promise<void> {
  await Promise.all(
    chains.map(async (chain) => {
      await chain.testClient.setNextBlockTimestamp({ timestamp });
      await chain.testClient.mine({ blocks: 1 });
    }),
  );
}

/**
 * Sends a transaction with a fixed gas limit (no estimation, so a reverting call is still mined) and
 * returns its receipt whatever the status.
 */
export async function sendWithGas(
  chain: TestChain,
  from: Role,
  tx: { to: Address; data: Hex; gas: bigint },
): Promise<TransactionReceipt> {
  const hash = await chain.wallets[from].sendTransaction(tx);
  return chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: POLLING_INTERVAL_MS });
}

/** Gas limit for transactions that are expected to revert: ample for any single Switchyard call. */
const REVERTING_TX_GAS = 3_000_000n;

/**
 * Expects a transaction to fail with the custom error `errorName`, both ways: mined on-chain (fixed gas, so
 * it is not stopped at estimation) with a reverted receipt, then replayed as an `eth_call` on the unchanged
 * state to decode the error. Returns the error's args. Set the next block's timestamp before calling when
 * the outcome depends on time: the replay runs against the block that holds the reverted transaction.
 */
export async function expectRevertOnChain(
  chain: TestChain,
  from: Role,
  tx: { to: Address; data: Hex },
  errorName: string,
): Promise<readonly unknown[]> {
  const receipt = await sendWithGas(chain, from, { ...tx, gas: REVERTING_TX_GAS });
  if (receipt.status !== 'reverted') throw new Error(`expected ${errorName}, but the transaction succeeded`);
  return expectRevert(chain.publicClient.call({ account: chain.accounts[from], ...tx }), errorName);
}
