/**
 * What the chains say after a resilience run, compared with the service's journal:
 *
 * - `auditSends`: each operator transaction appears once. Per intent, the contract events: one `Executed`
 *   from the origin account, one `OrderOpened` by it, one `Filled` and one `Executed` from the destination
 *   account on the destination chain, one `OrderSettled` (cross-chain, whichever batch carried it); one
 *   `Executed` (same chain). Per
 *   (chain, relayer | solver): every transaction the key sent since the run began is a journaled row
 *   marked mined (or failed: an early destination execution that landed before its fill), with its nonce; every journaled nonce was used on-chain by exactly one of its rows (no
 *   nonce skipped); rows sharing a nonce carry the same call (to, data, value): fee replacements only.
 * - `snapshotBalances` / `expectConserved`: the conservation of every token on every chain, defined below.
 */
import {
  type Address,
  type Hex,
  isAddressEqual,
  type Log,
  parseEventLogs,
  parseTransaction,
  zeroAddress,
} from 'viem';
import { expect } from 'vitest';
import {
  destinationSettlerAbi,
  intentAccountAbi,
  originSettlerAbi,
} from '../../../src/contracts/abis.generated.ts';
import { FEE_TIER_TICK_SPACING, poolAddress } from '../../../src/providers/uniswap-v3-pool-address.ts';
import { rawQuery } from '../../harness/database.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import type { ResilienceService } from './resilience-service.ts';

const EVENTS_ABI = [...intentAccountAbi, ...originSettlerAbi, ...destinationSettlerAbi];
const lower = (a: string) => a.toLowerCase();

export interface AuditedIntent {
  intentId: string;
  originChainId: number;
  destinationChainId: number;
  originAddress: Address;
  destinationAddress: Address;
}

interface JournalRow {
  chain_id: number;
  from_address: string;
  nonce: number;
  hash: string;
  raw: string;
  purpose: string;
  intent_id: string | null;
  status: string;
}

type DecodedLog = Log & { eventName: string; args: Record<string, unknown> };

async function logsSince(chain: TestDevnetChain, fromBlock: bigint): Promise<DecodedLog[]> {
  const logs = await chain.publicClient.getLogs({ fromBlock, toBlock: 'latest' });
  return parseEventLogs({ abi: EVENTS_ABI, logs, strict: false }) as unknown as DecodedLog[];
}

/** Every transaction mined on `chain` since `fromBlock`, with its sender and nonce. */
async function transactionsSince(chain: TestDevnetChain, fromBlock: bigint) {
  const head = await chain.publicClient.getBlockNumber();
  const txs: { hash: Hex; from: Address; nonce: number; blockNumber: bigint }[] = [];
  for (let n = fromBlock; n <= head; n++) {
    const block = await chain.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      txs.push({ hash: tx.hash, from: tx.from, nonce: tx.nonce, blockNumber: n });
    }
  }
  return txs;
}

export async function auditSends(
  svc: Pick<ResilienceService, 'net' | 'database'>,
  intents: AuditedIntent[],
  startBlocks: Map<number, bigint>,
): Promise<{ operatorTransactions: number }> {
  const logs = new Map<number, DecodedLog[]>();
  for (const c of svc.net.chains)
    logs.set(c.entry.chainId, await logsSince(c, startBlocks.get(c.entry.chainId)!));
  const count = (chainId: number, match: (l: DecodedLog) => boolean) =>
    logs.get(chainId)!.filter(match).length;

  for (const it of intents) {
    const executedBy = (chainId: number, account: Address) =>
      count(chainId, (l) => l.eventName === 'Executed' && isAddressEqual(l.address, account));
    const originExecuted = executedBy(it.originChainId, it.originAddress);
    if (it.originChainId === it.destinationChainId) {
      expect({ intent: it.intentId, originExecuted }).toEqual({ intent: it.intentId, originExecuted: 1 });
      continue;
    }
    const opened = logs
      .get(it.originChainId)!
      .filter(
        (l) => l.eventName === 'OrderOpened' && isAddressEqual(l.args.depositor as Address, it.originAddress),
      );
    const orderId = opened[0]?.args.orderId as Hex | undefined;
    const counts = {
      intent: it.intentId,
      originExecuted,
      opened: opened.length,
      filled: count(it.destinationChainId, (l) => l.eventName === 'Filled' && l.args.orderId === orderId),
      destinationExecuted: executedBy(it.destinationChainId, it.destinationAddress),
      settled: count(it.originChainId, (l) => l.eventName === 'OrderSettled' && l.args.orderId === orderId),
    };
    expect(counts).toEqual({
      intent: it.intentId,
      originExecuted: 1,
      opened: 1,
      filled: 1,
      destinationExecuted: 1,
      settled: 1,
    });
  }

  const journal = await rawQuery<JournalRow>(svc.database, 'SELECT * FROM signed_transactions');
  const accounts = svc.net.devnet.accounts;
  let operatorTransactions = 0;
  for (const chain of svc.net.chains) {
    const chainId = chain.entry.chainId;
    const mined = await transactionsSince(chain, startBlocks.get(chainId)!);
    for (const key of [accounts.relayer!.address, accounts.solver!.address]) {
      const sent = mined.filter((t) => isAddressEqual(t.from, key));
      operatorTransactions += sent.length;
      const rows = journal.filter((r) => Number(r.chain_id) === chainId && r.from_address === lower(key));
      const byNonce = new Map<number, JournalRow[]>();
      for (const r of rows) byNonce.set(Number(r.nonce), [...(byNonce.get(Number(r.nonce)) ?? []), r]);
      // Every transaction the key sent is journaled at its nonce and marked mined.
      for (const tx of sent) {
        const row = rows.find((r) => r.hash === lower(tx.hash));
        const seen = {
          chainId,
          hash: tx.hash,
          purpose: row?.purpose,
          nonce: row && Number(row.nonce),
          status: row?.status,
        };
        expect(seen).toEqual({
          chainId,
          hash: tx.hash,
          purpose: row?.purpose,
          nonce: tx.nonce,
          status: revertedEarly(row) ? 'failed' : 'mined',
        });
      }
      for (const [nonce, same] of byNonce) {
        // No journaled nonce left unused (a gap would block every later transaction of the key).
        const onChain = same.filter((r) => sent.some((t) => lower(t.hash) === r.hash));
        expect({ chainId, key, nonce, minedRows: onChain.length }).toEqual({
          chainId,
          key,
          nonce,
          minedRows: 1,
        });
        // Rows at one nonce differ in fees only: never another call under the same nonce.
        const calls = new Set(
          same.map((r) => {
            const p = parseTransaction(r.raw as Hex);
            return `${p.to}|${p.data}|${p.value ?? 0n}|${r.purpose}|${r.intent_id}`;
          }),
        );
        expect({ chainId, nonce, distinctCalls: calls.size }).toEqual({ chainId, nonce, distinctCalls: 1 });
      }
      // Per intent and purpose, exactly one journaled transaction reached the chain. Rows of no intent (the
      // solver's approvals, settlement batches, whose orders are counted once each above): per call.
      const perPurpose = new Map<string, number>();
      for (const r of rows.filter((r) => sent.some((t) => lower(t.hash) === r.hash))) {
        const p = parseTransaction(r.raw as Hex);
        const k = r.intent_id === null ? `${r.purpose}|${p.to}|${p.data}` : `${r.intent_id}|${r.purpose}`;
        perPurpose.set(k, (perPurpose.get(k) ?? 0) + 1);
      }
      for (const [k, n] of perPurpose) expect({ k, n }).toEqual({ k, n: 1 });
    }
  }
  return { operatorTransactions };
}

/**
 * A destination execution sent right behind its fill that landed before it: it reverts as a whole by
 * design (InsufficientDeposit, nothing moves) and the destination step sends the normal execution after.
 */
function revertedEarly(row: JournalRow | undefined): boolean {
  return row?.purpose === 'destination-execute-early' && row.status === 'failed';
}

// ------------------------------------------------------------------------------------------- conservation

/**
 * The holders whose balances are summed, per chain: the devnet roles (user, solver, relayer, attester,
 * fee collector), every contract the devnet lists (settlers, factory, WETH, routers, vaults), every
 * Uniswap V2 pair and V3 pool (every fee tier of every pair of listed tokens; one never created holds
 * nothing), the block producer (it receives the priority fees), and the addresses the run created:
 * every intent account (origin and destination) and every recipient.
 */
export async function holders(
  svc: Pick<ResilienceService, 'net'>,
  chain: TestDevnetChain,
  extra: Address[],
): Promise<Address[]> {
  const a = svc.net.devnet.accounts;
  const roles = Object.values(a)
    .filter((x) => x !== undefined)
    .map((x) => x.address);
  const contracts = Object.values(chain.entry.contracts).filter((x): x is Address => typeof x === 'string');
  const pairs: Address[] = [];
  const factory = chain.entry.contracts.uniswapV2Factory;
  if (factory) {
    const pairAbi = [
      {
        type: 'function',
        name: 'allPairsLength',
        stateMutability: 'view',
        inputs: [],
        outputs: [{ type: 'uint256' }],
      },
      {
        type: 'function',
        name: 'allPairs',
        stateMutability: 'view',
        inputs: [{ type: 'uint256' }],
        outputs: [{ type: 'address' }],
      },
    ] as const;
    const n = await chain.publicClient.readContract({
      address: factory,
      abi: pairAbi,
      functionName: 'allPairsLength',
    });
    for (let i = 0n; i < n; i++) {
      pairs.push(
        await chain.publicClient.readContract({
          address: factory,
          abi: pairAbi,
          functionName: 'allPairs',
          args: [i],
        }),
      );
    }
  }
  const v3Factory = chain.entry.contracts.uniswapV3Factory as Address | undefined;
  const tokens = Object.values(chain.entry.tokens).filter((x): x is Address => typeof x === 'string');
  if (v3Factory) {
    for (const [i, a] of tokens.entries()) {
      for (const b of tokens.slice(i + 1)) {
        for (const fee of FEE_TIER_TICK_SPACING.keys()) pairs.push(poolAddress(v3Factory, a, b, fee));
      }
    }
  }
  const miner = (await chain.publicClient.getBlock()).miner;
  const all = [...roles, ...contracts, ...pairs, miner, ...extra];
  return [...new Map(all.map((x) => [lower(x), x])).values()];
}

const balanceAbi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'a', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
] as const;

async function sumAt(
  chain: TestDevnetChain,
  token: Address,
  who: Address[],
  blockNumber: bigint,
): Promise<bigint> {
  let total = 0n;
  for (const address of who) {
    total +=
      token === zeroAddress
        ? await chain.publicClient.getBalance({ address, blockNumber })
        : await chain.publicClient.readContract({
            address: token,
            abi: balanceAbi,
            functionName: 'balanceOf',
            args: [address],
            blockNumber,
          });
  }
  return total;
}

/** Base fee burned by every transaction mined in (fromBlock, head]: the only native that leaves the set. */
async function burnedSince(chain: TestDevnetChain, fromBlock: bigint): Promise<bigint> {
  const head = await chain.publicClient.getBlockNumber();
  let burned = 0n;
  for (let n = fromBlock + 1n; n <= head; n++) {
    const block = await chain.publicClient.getBlock({ blockNumber: n });
    burned += block.gasUsed * (block.baseFeePerGas ?? 0n);
  }
  return burned;
}

export interface ConservationLine {
  chain: string;
  token: string;
  before: bigint;
  after: bigint;
  /** What left the set legitimately: burned base fee (native); for WETH, minus what was wrapped. */
  allowed: bigint;
}

/**
 * Conservation, per chain and token, between block `startBlock` (before the first intent) and the head:
 * ERC-20: Σ holders(after) = Σ holders(before) — swaps only move tokens between users, accounts and
 * pairs, all in the set. WETH: Σ(after) − Σ(before) = the WETH contract's native growth (wraps mint).
 * Native: Σ(after) + base fee burned = Σ(before) (priority fees go to the block producer, in the set).
 * Intent accounts and recipients are read at `startBlock` too (they must have held nothing).
 */
export async function conservation(
  svc: Pick<ResilienceService, 'net'>,
  startBlocks: Map<number, bigint>,
  created: Address[],
): Promise<ConservationLine[]> {
  const lines: ConservationLine[] = [];
  for (const chain of svc.net.chains) {
    const start = startBlocks.get(chain.entry.chainId)!;
    const head = await chain.publicClient.getBlockNumber();
    const who = await holders(svc, chain, created);
    const weth = chain.entry.contracts.weth;
    const wethNative = weth
      ? (await chain.publicClient.getBalance({ address: weth, blockNumber: head })) -
        (await chain.publicClient.getBalance({ address: weth, blockNumber: start }))
      : 0n;
    const tokens = new Map<string, Address>([['native', zeroAddress], ...Object.entries(chain.entry.tokens)]);
    for (const [symbol, token] of tokens) {
      if (symbol !== 'native' && token === zeroAddress) continue;
      const before = await sumAt(chain, token, who, start);
      const after = await sumAt(chain, token, who, head);
      let allowed = 0n;
      if (token === zeroAddress) allowed = await burnedSince(chain, start);
      else if (weth && isAddressEqual(token, weth)) allowed = -wethNative;
      lines.push({ chain: chain.entry.name, token: symbol, before, after, allowed });
    }
  }
  return lines;
}

export function expectConserved(lines: ConservationLine[]): void {
  for (const l of lines) {
    expect({ chain: l.chain, token: l.token, total: l.after + l.allowed }).toEqual({
      chain: l.chain,
      token: l.token,
      total: l.before,
    });
  }
}
