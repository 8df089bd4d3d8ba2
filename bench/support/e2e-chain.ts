/**
 * The benchmark's own view of a devnet chain: a read client, anvil's cheat methods, and a plain
 * "sign, send, poll for the receipt" used by every transaction the benchmark sends itself (the users'
 * deposits and the bare run), so both sides of a comparison pay the same client costs.
 */
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { devnetChain } from '../../src/devnet/chain-clients.ts';
import type { DevnetChainEntry } from '../../src/devnet/devnet-file.ts';

/** Receipt poll of the benchmark's own transactions (ms): short, so the bare run is not slowed by it. */
export const BENCH_RECEIPT_POLL_MS = 20;
/** A transaction of the benchmark's unmined after this long (ms) is sent again: blocks come every second at most. */
const REBROADCAST_AFTER_MS = 2_000;
/** A transaction the benchmark sent that is not mined after this long (ms) fails the run. */
const RECEIPT_TIMEOUT_MS = 60_000;

export interface BenchChain {
  entry: DevnetChainEntry;
  chain: Chain;
  client: PublicClient;
  test: ReturnType<typeof createBenchTestClient>;
}

function createBenchTestClient(chain: Chain) {
  return createTestClient({ chain, mode: 'anvil', transport: http() });
}

export function benchChain(entry: DevnetChainEntry): BenchChain {
  const chain = devnetChain(entry.chainId, entry.name, entry.rpcUrl);
  return {
    entry,
    chain,
    client: createPublicClient({ chain, transport: http() }) as PublicClient,
    test: createBenchTestClient(chain),
  };
}

export interface SendInput {
  to: Address;
  data: Hex;
  value?: bigint;
  /** Given for shared keys (relayer, solver), whose nonces the caller counts; else the chain's pending count. */
  nonce?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a plain script does: viem fills gas (estimate), fees and the nonce, signs locally, broadcasts,
 * then polls for the receipt. Throws on a revert.
 */
export async function sendAndWait(
  chain: BenchChain,
  account: Account,
  tx: SendInput,
): Promise<TransactionReceipt> {
  const wallet = createWalletClient({ chain: chain.chain, account, transport: http() });
  // What wallet.sendTransaction does for a local account, in its steps, so the signed bytes can be sent again.
  const request = await wallet.prepareTransactionRequest({
    to: tx.to,
    data: tx.data,
    value: tx.value ?? 0n,
    ...(tx.nonce !== undefined && { nonce: tx.nonce }),
  });
  const serializedTransaction = await wallet.signTransaction(request);
  const hash = await wallet.sendRawTransaction({ serializedTransaction });
  const send = () => wallet.sendRawTransaction({ serializedTransaction }).then(() => undefined);
  const rebroadcast = () =>
    send().catch(async (error: unknown) => {
      // Refused because the node holds it. Under automine anvil can hold the chain's next nonce as queued
      // behind a nonce already mined, or ready and never mined (foundry-rs/foundry#10122): taken out and
      // sent again, it is placed afresh and mined. `anvil_dropTransaction` leaves a queued transaction where
      // it is, so all of the key's are taken out; the others' waiters send theirs again at their next look.
      // The service replaces its own instead.
      if ((await chain.test.getAutomine()) && (await isNextNonce(chain, account.address, request.nonce))) {
        await removePoolTransactions(chain, account.address);
        return send();
      }
      throw error;
    });
  const receipt = await waitForReceipt(chain.client, hash, rebroadcast).catch(async (error: unknown) => {
    throw new Error(`${(error as Error).message}: ${await whoSent(chain, account.address, tx.nonce)}`, {
      cause: error,
    });
  });
  if (receipt.status !== 'success')
    throw new Error(`transaction ${hash} reverted on chain ${chain.entry.chainId}`);
  return receipt;
}

/** Every transaction of `from` out of the node's pool, ready or queued (`anvil_removePoolTransactions`). */
async function removePoolTransactions(chain: BenchChain, from: Address): Promise<void> {
  await chain.test.request({ method: 'anvil_removePoolTransactions', params: [from] } as never);
}

const isNextNonce = async (chain: BenchChain, from: Address, nonce: number) =>
  (await chain.client.getTransactionCount({ address: from, blockTag: 'latest' })) === nonce;

/** For a send that never got mined: who sent it and whether the sender's nonces show a gap before it. */
async function whoSent(chain: BenchChain, from: Address, nonce: number | undefined): Promise<string> {
  const [mined, pending] = await Promise.all([
    chain.client.getTransactionCount({ address: from }),
    chain.client.getTransactionCount({ address: from, blockTag: 'pending' }),
  ]).catch(() => [undefined, undefined]);
  const given = nonce === undefined ? 'nonce filled by viem' : `nonce ${nonce}`;
  return (
    `sent by ${from} on chain ${chain.entry.chainId} (${given}; the chain has ${mined} mined, ${pending} pending;` +
    ` the node's pool holds of it: ${await poolOf(chain, from)})`
  );
}

/** The nonces of `from` in the node's pool, ready ("pending") and waiting on a gap ("queued"): txpool_inspect. */
async function poolOf(chain: BenchChain, from: Address): Promise<string> {
  type Inspect = Record<'pending' | 'queued', Record<string, Record<string, string>>>;
  const pool = (await chain.client
    .request({ method: 'txpool_inspect' as 'eth_chainId' })
    .catch(() => undefined)) as unknown as Inspect | undefined;
  if (!pool) return 'unknown (no txpool_inspect)';
  const nonces = (part: 'pending' | 'queued') => {
    const bySender = Object.entries(pool[part] ?? {}).find(([a]) => a.toLowerCase() === from.toLowerCase());
    return bySender ? Object.keys(bySender[1]).join(',') : 'none';
  };
  return `pending ${nonces('pending')}, queued ${nonces('queued')}`;
}

/**
 * Polls for `hash`'s receipt. With `rebroadcast`, sends the same signed transaction again every
 * REBROADCAST_AFTER_MS it stays unmined, as any wallet script would: rarely, with a key's transactions sent
 * concurrently, anvil has answered a send with its hash and then left it unmined in its pool, leaving every
 * later nonce of that key stuck behind it.
 */
export async function waitForReceipt(
  client: PublicClient,
  hash: Hex,
  rebroadcast?: () => Promise<void>,
): Promise<TransactionReceipt> {
  const started = Date.now();
  let lastSent = started;
  // What the node answered the last send again, for the message of a send that never gets mined.
  let resent = 'never sent again';
  for (;;) {
    const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
    if (receipt) return receipt;
    if (Date.now() - started > RECEIPT_TIMEOUT_MS)
      throw new Error(`transaction ${hash} not mined in time (last send again: ${resent})`);
    if (rebroadcast && Date.now() - lastSent > REBROADCAST_AFTER_MS) {
      lastSent = Date.now();
      // "already known" or "nonce too low" only say that the node has it or has mined it.
      resent = await rebroadcast().then(
        () => 'accepted',
        (error: unknown) =>
          ((error as { details?: string }).details ?? (error as Error).message).split('\n')[0]!,
      );
    }
    await sleep(BENCH_RECEIPT_POLL_MS);
  }
}

/** Local nonce counting for a key the benchmark shares between concurrent jobs (relayer, solver). */
export interface NonceCounter {
  next(): number;
}

export async function nonceCounter(chain: BenchChain, address: Address): Promise<NonceCounter> {
  let nonce = await chain.client.getTransactionCount({ address, blockTag: 'pending' });
  return { next: () => nonce++ };
}
