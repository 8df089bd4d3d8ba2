/**
 * What the action runner needs: the world, the model, and the two ways a transaction can go (sent and
 * expected to succeed, or simulated and expected to revert with one exact custom error and its args).
 */
import type { Address, Hex, TransactionReceipt } from 'viem';
import { expect } from 'vitest';
import {
  decodeRevert,
  expectRevert,
  POLLING_INTERVAL_MS,
  type TestWalletClient,
} from '../../harness/chain.ts';
import type { ChainKey, Model } from './model.ts';
import type { Actor, Side, World } from './world.ts';

/** Gas limit of every transaction: set explicitly so nothing is estimated (an unexpected revert then shows). */
const TX_GAS = 3_000_000n;

export interface RunContext {
  world: World;
  model: Model;
  /** Called with every successful receipt, before the model is updated (per-transaction checks). */
  onReceipt(chain: ChainKey, receipt: TransactionReceipt): Promise<void>;
  /** Outcome of each transaction or call: 'ok' or the expected error's name (coverage statistics). */
  outcomes: string[];
}

export function sideOf(ctx: RunContext, chain: ChainKey): Side {
  return chain === 'a' ? ctx.world.a : ctx.world.b;
}

/** The wallet an actor signs with; `owner` is the owner of the route in question. */
export function walletOf(ctx: RunContext, chain: ChainKey, actor: Actor, route: number): TestWalletClient {
  const side = sideOf(ctx, chain);
  if (actor !== 'owner') return side.chain.wallets[actor];
  return route === 0 ? side.chain.wallets.user : side.secondOwner;
}

/** `block.timestamp` of the next transaction or call (blocks are exactly one second apart). */
export async function nextTimestamp(ctx: RunContext, chain: ChainKey): Promise<bigint> {
  return (await sideOf(ctx, chain).chain.now()) + 1n;
}

export async function sendOk(
  ctx: RunContext,
  chain: ChainKey,
  wallet: TestWalletClient,
  tx: { to: Address; data: Hex },
): Promise<TransactionReceipt> {
  const { publicClient } = sideOf(ctx, chain).chain;
  const hash = await wallet.sendTransaction({ ...tx, gas: TX_GAS });
  const receipt = await publicClient.waitForTransactionReceipt({
    hash,
    pollingInterval: POLLING_INTERVAL_MS,
  });
  if (receipt.status !== 'success') {
    const why = await publicClient
      .call({ account: wallet.account, ...tx })
      .catch((e: unknown) => decodeRevert(e));
    throw new Error(
      `the model expected success but the transaction reverted: ${JSON.stringify(why, jsonBigint)}`,
    );
  }
  await ctx.onReceipt(chain, receipt);
  ctx.outcomes.push('ok');
  return receipt;
}

export async function expectFailure(
  ctx: RunContext,
  chain: ChainKey,
  wallet: TestWalletClient,
  tx: { to: Address; data: Hex },
  errorName: string,
  args: readonly unknown[],
): Promise<void> {
  const { publicClient } = sideOf(ctx, chain).chain;
  // 'pending' runs the call in the next block's environment, i.e. at the timestamp a transaction would get.
  const call = publicClient.call({ account: wallet.account, blockTag: 'pending', ...tx });
  const actual = await expectRevert(call, errorName);
  expect(actual, `${errorName} args`).toEqual(args);
  ctx.outcomes.push(errorName);
}

export function jsonBigint(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
