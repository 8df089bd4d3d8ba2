/**
 * The two-chain world the property tests run in: origin chain A and destination chain B (real anvil, real
 * Switchyard contracts), a second intent owner, a vault and a reverting target on B, the solver's inventory,
 * and every actor's spending money. Built once per test file; each property run starts from the same
 * snapshot (`reset`), with both chain clocks aligned and block timestamps made deterministic (each block is
 * exactly one second after the previous one), so the model knows the `block.timestamp` of every call.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  toHex,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import {
  startTestChain,
  type TestChain,
  type TestPublicClient,
  type TestWalletClient,
} from '../../harness/chain.ts';
import { USDC } from '../route.ts';

/** anvil's well-known development mnemonic: account 7 is the second intent owner. */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
const SECOND_OWNER_INDEX = 7;

/** One USDC in base units, re-exported for the property tests. */
export { USDC };

/** Spending money of every depositing actor on both chains: far more than any generated run can use. */
const ACTOR_BUDGET = 1_000_000n * USDC;
/** DAI has 18 decimals, USDC 6: the same face value in DAI base units. */
export const DAI_PER_USDC_UNIT = 10n ** 12n;
/** The solver's inventory on B; it approves the destination settler for all of it. */
const SOLVER_INVENTORY = 1_000_000n * USDC;
/** Seconds between consecutive blocks: 1 makes every transaction's timestamp predictable (latest + 1). */
const BLOCK_INTERVAL_SECONDS = 1;
/** AccruingVault yield per second: none, so shares stay 1:1 with assets and the model can predict them. */
const VAULT_YIELD_PER_SECOND = 0n;
/** JSON-RPC batch size for the many balance reads after each action (one HTTP request per chain). */
const READ_BATCH_SIZE = 1_000;

export type Actor = 'relayer' | 'solver' | 'stranger' | 'owner';
export const ACTORS: readonly Actor[] = ['relayer', 'solver', 'stranger', 'owner'];

export interface Side {
  chain: TestChain;
  /** Batched JSON-RPC reads. */
  reader: TestPublicClient;
  /** Wallet of the second intent owner (anvil account 7). */
  secondOwner: TestWalletClient;
}

export interface World {
  a: Side;
  b: Side;
  /** Owner (= refund recipient) of route i. */
  owners: readonly [Address, Address];
  /** Where the solver may ask to be repaid instead of its own address. */
  treasury: Address;
  vault: Address;
  revertingTarget: Address;
  grace: bigint;
  /** Restores both chains to the post-setup snapshot and aligns their clocks; returns the common now. */
  reset(): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startWorld(chainIds: { a: number; b: number }, grace: bigint): Promise<World> {
  const [chainA, chainB] = await Promise.all([
    startTestChain({ chainId: chainIds.a, graceSeconds: grace }),
    startTestChain({ chainId: chainIds.b, graceSeconds: grace }),
  ]);
  try {
    const a = sideOf(chainA);
    const b = sideOf(chainB);
    const owners = [chainA.accounts.user.address, a.secondOwner.account.address] as const;
    // One deployer account: deploy one after the other (parallel sends would reuse a nonce).
    const vault = await chainB.deploy('AccruingVault', [
      chainB.tokens.usdc,
      'Property Vault',
      'pvUSDC',
      VAULT_YIELD_PER_SECOND,
    ]);
    const revertingTarget = await chainB.deploy('RevertingTarget');
    await fundActors(a, b, owners);
    for (const side of [a, b]) {
      await rpc(side.chain, 'anvil_setBlockTimestampInterval', [BLOCK_INTERVAL_SECONDS]);
    }
    let snapshots = await Promise.all([snapshot(chainA), snapshot(chainB)]);
    return {
      a,
      b,
      owners,
      treasury: addressFromLabel('solver-treasury'),
      vault,
      revertingTarget,
      grace,
      async reset() {
        await Promise.all([revert(chainA, snapshots[0]), revert(chainB, snapshots[1])]);
        snapshots = await Promise.all([snapshot(chainA), snapshot(chainB)]);
        return alignClocks(chainA, chainB);
      },
      stop: () => Promise.all([chainA.stop(), chainB.stop()]).then(() => undefined),
    };
  } catch (error) {
    await Promise.all([chainA.stop(), chainB.stop()]);
    throw error;
  }
}

function sideOf(chain: TestChain): Side {
  const reader = createPublicClient({
    chain: chain.chain,
    transport: http(chain.rpcUrl, { batch: { batchSize: READ_BATCH_SIZE, wait: 0 } }),
  });
  const secondOwner = createWalletClient({
    chain: chain.chain,
    transport: http(chain.rpcUrl),
    account: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: SECOND_OWNER_INDEX }),
  });
  return { chain, reader, secondOwner };
}

/** Owners and the stranger get USDC and DAI on both chains; the solver gets inventory on B, approved. */
async function fundActors(a: Side, b: Side, owners: readonly Address[]): Promise<void> {
  for (const { chain } of [a, b]) {
    for (const holder of [...owners, chain.accounts.stranger.address]) {
      await chain.mint(chain.tokens.usdc, holder, ACTOR_BUDGET);
      await chain.mint(chain.tokens.dai, holder, ACTOR_BUDGET * DAI_PER_USDC_UNIT);
    }
  }
  await b.chain.mint(b.chain.tokens.usdc, b.chain.accounts.solver.address, SOLVER_INVENTORY);
  await b.chain.send('solver', {
    to: b.chain.tokens.usdc,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [b.chain.contracts.destinationSettler, SOLVER_INVENTORY],
    }),
  });
}

/** A fixed address nobody holds a key for, derived from a label. */
export function addressFromLabel(label: string): Address {
  return `0x${keccak256(toHex(label)).slice(26)}` as Address;
}

export function rpc(chain: TestChain, method: string, params: unknown[] = []): Promise<unknown> {
  return chain.testClient.request({ method: method as never, params: params as never });
}

async function snapshot(chain: TestChain): Promise<string> {
  return (await rpc(chain, 'evm_snapshot')) as string;
}

async function revert(chain: TestChain, id: string): Promise<void> {
  const ok = await rpc(chain, 'evm_revert', [id]);
  if (ok !== true) throw new Error(`evm_revert ${id} failed on chain ${chain.chainId}`);
}

/** Both chains mine a block at the same timestamp, so route deadlines mean the same on A and B. */
async function alignClocks(a: TestChain, b: TestChain): Promise<bigint> {
  const [ta, tb] = await Promise.all([a.now(), b.now()]);
  const common = maxOf(ta, tb) + 1n;
  await Promise.all([setLatest(a, common), setLatest(b, common)]);
  return common;
}

/** Mines one block at exactly `timestamp`; the next transaction then runs at `timestamp + 1`. */
export async function setLatest(chain: TestChain, timestamp: bigint): Promise<void> {
  await rpc(chain, 'evm_setNextBlockTimestamp', [Number(timestamp)]);
  await chain.testClient.mine({ blocks: 1 });
}

/** The larger of two bigints (Math.max does not take bigint). */
export function maxOf(x: bigint, y: bigint): bigint {
  return x > y ? x : y;
}
