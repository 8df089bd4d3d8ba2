/**
 * One intent the way a wallet runs it through the official client: QuoteIntent → CommitIntent (the client's
 * decoded intent sent back) → the user's deposit exactly as `intent.depositTransaction` says → ExecuteIntent
 * → WaitIntentReceipt with `lastReceiptStates` until `done`. Then the checks every route shares: the receipt
 * (statuses, hashes that exist on their chains, mined times, summary, bigints) and what moved on-chain
 * (recipient, user, fee collector, both intent accounts empty).
 */
import type { Intent, IntentReceipt, QuoteIntentRequest, TrailsApi, TransactionStatus } from '@0xtrails/api';
import { type Address, type Hex, isAddressEqual, zeroAddress } from 'viem';
import { expect } from 'vitest';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { balanceOf, type E2eService, gasPaid } from './e2e-fixture.ts';

export interface RunOptions {
  /** Send ExecuteIntent while the deposit sits unmined (automine paused on the origin chain). */
  executeBeforeMined?: boolean;
  /** Where the delivered token lands when that is not `destinationToAddress` (it is, for a vault call). */
  recipient?: Address;
}

export interface RunResult {
  intent: Intent;
  receipt: IntentReceipt;
  /** Every receiptStates the wait loop saw, in order. */
  states: TransactionStatus[][];
  depositHash: Hex;
  /** What the recipient's destination-token balance grew by. */
  received: bigint;
}

/** The raw transaction fields the server puts beside the client's typed DepositTransaction members. */
interface RawDeposit {
  to: Address;
  data: Hex;
  value?: string | number | bigint;
  chainId: number;
}

export async function runIntent(
  svc: E2eService,
  api: TrailsApi,
  request: QuoteIntentRequest,
  options: RunOptions = {},
): Promise<RunResult> {
  const origin = svc.chain(request.originChainId);
  const destination = svc.chain(request.destinationChainId);
  const user = svc.net.devnet.accounts.user.address;
  const feeCollector = svc.net.devnet.accounts.feeCollector!.address;
  const recipient = options.recipient ?? (request.destinationToAddress as Address);
  const originToken = request.originTokenAddress as Address;
  const destinationToken = request.destinationTokenAddress as Address;

  const userBefore = await balanceOf(origin, originToken, user);
  const feeBefore = await balanceOf(origin, originToken, feeCollector);
  const recipientBefore = await balanceOf(destination, destinationToken, recipient);

  const { intent } = await api.quoteIntent(request);
  expect(intent.status).toBe('QUOTED');
  const { intentId } = await api.commitIntent({ intent });
  expect(intentId).toBe(intent.intentId);

  const depositHash = await deposit(origin, intent, options.executeBeforeMined ?? false, async (hash) => {
    const executed = await api.executeIntent({ intentId, depositTransactionHash: hash });
    expect(executed.intentId).toBe(intentId);
    expect(['COMMITTED', 'EXECUTING']).toContain(executed.intentStatus);
  });

  const { receipt, states } = await waitUntilDone(api, intentId);

  expect(receipt.status).toBe('SUCCEEDED');
  expect(states.at(-1)?.every((s) => s === 'SUCCEEDED')).toBe(true);
  await expectReceiptOnChain(svc, receipt);
  expect(receipt.depositTransaction.txnHash).toBe(depositHash.toLowerCase());
  expectSummary(receipt, intent);

  // On-chain: the recipient got at least the minimum, the user paid the deposit, the collector the fee.
  const received = (await balanceOf(destination, destinationToken, recipient)) - recipientBefore;
  expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
  const userGas = originToken === zeroAddress ? await gasPaid(origin, depositHash) : 0n;
  expect(userBefore - (await balanceOf(origin, originToken, user))).toBe(
    intent.depositTransaction.amount + userGas,
  );
  expect((await balanceOf(origin, originToken, feeCollector)) - feeBefore).toBe(
    intent.fees.collectorFeeTotal,
  );
  await expectEmpty(origin, intent.originIntentAddress as Address);
  if (intent.destinationIntentAddress)
    await expectEmpty(destination, intent.destinationIntentAddress as Address);

  return { intent, receipt, states, depositHash, received };
}

/** Sends the deposit transaction the quote describes; `execute` runs before or after it is mined. */
async function deposit(
  chain: TestDevnetChain,
  intent: Intent,
  beforeMined: boolean,
  execute: (hash: Hex) => Promise<void>,
): Promise<Hex> {
  const raw = intent.depositTransaction as unknown as RawDeposit;
  expect(raw.chainId).toBe(chain.entry.chainId);
  const wallet = chain.walletFor('user');
  const send = () => wallet.sendTransaction({ to: raw.to, data: raw.data, value: BigInt(raw.value ?? 0) });
  if (!beforeMined) {
    const hash = await send();
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await execute(hash);
    return hash;
  }
  await chain.testClient.setAutomine(false);
  try {
    const hash = await send();
    expect(await chain.publicClient.getTransactionReceipt({ hash }).catch(() => undefined)).toBeUndefined();
    await execute(hash);
    await chain.testClient.mine({ blocks: 1 });
    return hash;
  } finally {
    await chain.testClient.setAutomine(true);
  }
}

/** The client's long-poll loop: each call names the states it has seen and returns when they change. */
export async function waitUntilDone(
  api: TrailsApi,
  intentId: string,
  onChange?: (states: TransactionStatus[], receipt: IntentReceipt) => void,
): Promise<{ receipt: IntentReceipt; states: TransactionStatus[][] }> {
  const states: TransactionStatus[][] = [];
  let last: TransactionStatus[] | undefined;
  for (;;) {
    const answer = await api.waitIntentReceipt({ intentId, lastReceiptStates: last });
    if (!last || answer.receiptStates.join() !== last.join()) {
      states.push(answer.receiptStates);
      onChange?.(answer.receiptStates, answer.intentReceipt);
    }
    last = answer.receiptStates;
    if (answer.done) return { receipt: answer.intentReceipt, states };
  }
}

/** Every transaction of the receipt succeeded, its hash is mined on its chain at the stated time. */
async function expectReceiptOnChain(svc: E2eService, receipt: IntentReceipt): Promise<void> {
  const txs = [receipt.depositTransaction, receipt.originTransaction, receipt.destinationTransaction];
  for (const tx of txs) {
    expect(tx?.status).toBe('SUCCEEDED');
    expect(tx?.txnHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof tx?.tokenAmount).toBe('bigint');
    const chain = svc.chain(tx!.chainId);
    const mined = await chain.publicClient.getTransactionReceipt({ hash: tx!.txnHash as Hex });
    expect(mined.status).toBe('success');
    const block = await chain.publicClient.getBlock({ blockNumber: mined.blockNumber });
    expect(tx?.txnMinedAt).toBe(new Date(Number(block.timestamp) * 1000).toISOString());
  }
}

function expectSummary(receipt: IntentReceipt, intent: Intent): void {
  const s = receipt.summary;
  expect(s.status).toBe('SUCCEEDED');
  expect(s.intentId).toBe(intent.intentId);
  for (const meta of [s.originTokenMetadata, s.destinationTokenMetadata]) {
    expect(meta.symbol).not.toBe('');
    expect(typeof meta.decimals).toBe('number');
  }
  expect(
    isAddressEqual(s.originTokenAddress as Address, intent.quoteRequest.originTokenAddress as Address),
  ).toBe(true);
  expect(typeof s.originTokenAmount).toBe('bigint');
  expect(typeof s.destinationTokenAmount).toBe('bigint');
  expect(s.originTokenAmount).toBe(intent.depositTransaction.amount);
  expect(s.destinationTokenAmount).toBe(intent.quote.toAmount);
  expect(receipt.destinationTransaction?.tokenAmount).toBeGreaterThan(0n);
  expect(new Date(s.startedAt!).toISOString()).toBe(s.startedAt);
  expect(new Date(s.finishedAt!).toISOString()).toBe(s.finishedAt);
  expect(Date.parse(s.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(s.startedAt!));
}

/** Neither the native currency nor any listed token is left in an intent account. */
async function expectEmpty(chain: TestDevnetChain, account: Address): Promise<void> {
  const tokens = new Set<Address>([zeroAddress, ...(Object.values(chain.entry.tokens) as Address[])]);
  for (const token of tokens) {
    expect({ token, balance: await balanceOf(chain, token, account) }).toEqual({ token, balance: 0n });
  }
}
