/**
 * The on-chain reads steps make before they send anything (so a re-run after a crash sees what already
 * happened). Every read goes through the chain-error mapper.
 */
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  getAbiItem,
  type Hex,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import { describeRevertData, withChainErrors } from '../chains/map-chain-error.ts';
import { destinationSettlerAbi, intentAccountAbi, originSettlerAbi } from '../contracts/abis.generated.ts';
import { AccountState, type OrderData } from '../contracts/types.ts';
import { LOG_LOOKBACK_BLOCKS } from './constants.ts';
import type { EngineContext } from './context.ts';
import { UnexpectedOutcomeError } from './errors.ts';

export type AccountStateName = 'none' | 'executed' | 'cancelled';

/** `state()` of an intent account, encoded once. */
const STATE_CALL = encodeFunctionData({ abi: intentAccountAbi, functionName: 'state' });

/**
 * An undeployed account is 'none' (its address may already hold the deposit). One eth_call, not a code
 * read first: a call to an address without code answers no data, which is 'none' too.
 */
export async function readAccountState(client: PublicClient, account: Address): Promise<AccountStateName> {
  return withChainErrors(async () => {
    const { data } = await client.call({ to: account, data: STATE_CALL });
    if (!data || data === '0x') return 'none';
    const state = decodeFunctionResult({ abi: intentAccountAbi, functionName: 'state', data });
    if (state === AccountState.Executed) return 'executed';
    if (state === AccountState.Cancelled) return 'cancelled';
    return 'none';
  });
}

/** The destination settler's record of an order's fill (FillStatus). */
export function readFillStatus(client: PublicClient, destSettler: Address, orderId: Hex): Promise<number> {
  return withChainErrors(() =>
    client.readContract({
      address: destSettler,
      abi: destinationSettlerAbi,
      functionName: 'fillStatus',
      args: [orderId],
    }),
  );
}

/** The chain's own clock (seconds): deadlines are judged by the block time, not ours. */
export async function chainNow(client: PublicClient): Promise<bigint> {
  return withChainErrors(async () => (await client.getBlock({ blockTag: 'latest' })).timestamp);
}

/**
 * The chain's clock from the latest block shared by the engine's sends and steps (at most
 * LATEST_BLOCK_CACHE_MS behind): for the deadline checks before a send, which the contracts enforce exactly.
 * Refund steps, which wait for a deadline to pass, read the clock fresh (chainNow).
 */
export async function recentChainNow(ctx: EngineContext, chainId: number | bigint): Promise<bigint> {
  if (!ctx.latestBlocks) return chainNow(ctx.chain(chainId).client);
  return (await ctx.latestBlocks.get(Number(chainId))).timestamp;
}

/** Balance of a token (zero address = native) held at a block. */
export async function balanceAt(
  client: PublicClient,
  token: Address,
  holder: Address,
  blockNumber?: bigint,
): Promise<bigint> {
  return withChainErrors(() =>
    token === zeroAddress
      ? client.getBalance({ address: holder, ...(blockNumber !== undefined && { blockNumber }) })
      : client.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [holder],
          ...(blockNumber !== undefined && { blockNumber }),
        }),
  );
}

/** The newest ERC-20 Transfer to `to` mined at or before `toBlock` (the deposit transaction), if any. */
export async function findTransferTo(
  client: PublicClient,
  token: Address,
  to: Address,
  toBlock: bigint,
): Promise<{ hash: Hex; from: Address; blockNumber: bigint } | undefined> {
  const fromBlock = toBlock > LOG_LOOKBACK_BLOCKS ? toBlock - LOG_LOOKBACK_BLOCKS : 0n;
  const logs = await withChainErrors(() =>
    client.getLogs({
      address: token,
      event: getAbiItem({ abi: erc20Abi, name: 'Transfer' }),
      args: { to },
      fromBlock,
      toBlock,
    }),
  );
  const last = logs.at(-1);
  if (!last?.transactionHash || last.blockNumber === null) return undefined;
  return { hash: last.transactionHash, from: last.args.from as Address, blockNumber: last.blockNumber };
}

/** The transaction in which `account` emitted Executed (for an account executed but not in our journal). */
export async function findExecutedTransaction(
  client: PublicClient,
  account: Address,
): Promise<Hex | undefined> {
  const head = await withChainErrors(() => client.getBlockNumber({ cacheTime: 0 }));
  const logs = await withChainErrors(() =>
    client.getLogs({
      address: account,
      event: getAbiItem({ abi: intentAccountAbi, name: 'Executed' }),
      fromBlock: head > LOG_LOOKBACK_BLOCKS ? head - LOG_LOOKBACK_BLOCKS : 0n,
      toBlock: head,
    }),
  );
  return logs.at(-1)?.transactionHash ?? undefined;
}

export async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt> {
  return withChainErrors(() => client.getTransactionReceipt({ hash }));
}

/** The order exactly as OriginSettler recorded it (depositor and inputAmount filled at run time). */
export function openedOrder(receipt: TransactionReceipt): OrderData {
  const opened = parseEventLogs({ abi: originSettlerAbi, eventName: 'OrderOpened', logs: receipt.logs });
  if (opened.length !== 1) {
    throw new UnexpectedOutcomeError(
      `origin transaction has ${opened.length} OrderOpened events, expected 1`,
      {
        details: { hash: receipt.transactionHash },
      },
    );
  }
  return opened[0]!.args.orderData as OrderData;
}

/** Whether the destination calls succeeded, and DestinationFailed's reason when they did not. */
export function executionOutcome(receipt: TransactionReceipt): { callsSucceeded: boolean; reason?: string } {
  const executed = parseEventLogs({ abi: intentAccountAbi, eventName: 'Executed', logs: receipt.logs });
  if (executed.length !== 1) {
    throw new UnexpectedOutcomeError(`transaction has ${executed.length} Executed events, expected 1`, {
      details: { hash: receipt.transactionHash },
    });
  }
  if (executed[0]!.args.callsSucceeded) return { callsSucceeded: true };
  const failed = parseEventLogs({
    abi: intentAccountAbi,
    eventName: 'DestinationFailed',
    logs: receipt.logs,
  });
  const raw = failed[0]?.args.reason as Hex | undefined;
  return {
    callsSucceeded: false,
    reason: `destination calls failed: ${raw ? describeRevertData(raw) : 'no reason given'}`,
  };
}
