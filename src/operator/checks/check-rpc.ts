/**
 * A chain's RPC: it answers with the configured chain id, and its head advances. A node that mines on demand
 * (anvil or Hardhat in automine mode) only moves with transactions, so it is asked instead of waited on; any
 * other head must move within the wait.
 */
import { minesOnDemand } from '../../chains/mines-on-demand.ts';
import { shortReason } from '../connect-chain.ts';
import { HEAD_POLL_MS } from './constants.ts';
import { type ChainCheckContext, type CheckResult, ok, problem } from './types.ts';

export async function checkRpc(ctx: ChainCheckContext, headWaitMs: number): Promise<CheckResult> {
  const { chainId } = ctx.chain;
  let reported: number;
  try {
    reported = await ctx.client.getChainId();
  } catch (error) {
    return problem(
      'fail',
      'rpc',
      `the RPC does not answer: ${shortReason(error)}`,
      `check chains[].rpcUrls[0] of chain ${chainId} and that the node is up`,
      chainId,
    );
  }
  if (reported !== chainId) {
    return problem(
      'fail',
      'rpc',
      `the RPC answers as chain ${reported}, not ${chainId}`,
      `point chain ${chainId}'s rpcUrls at a node of that chain`,
      chainId,
    );
  }
  const first = await ctx.client.getBlockNumber({ cacheTime: 0 });
  if ((await minesOnDemand(ctx.client)) === true) {
    return ok(
      'rpc',
      `answers as chain ${chainId}, head ${first}; the node mines a block per transaction`,
      chainId,
    );
  }
  const started = Date.now();
  while (Date.now() - started < headWaitMs) {
    await new Promise((resolve) => setTimeout(resolve, HEAD_POLL_MS));
    const head = await ctx.client.getBlockNumber({ cacheTime: 0 });
    if (head > first) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      return ok(
        'rpc',
        `answers as chain ${chainId}, head advancing (${first} → ${head} in ${seconds} s)`,
        chainId,
      );
    }
  }
  return problem(
    'fail',
    'rpc',
    `the head stayed at block ${first} for ${Math.round(headWaitMs / 1000)} s: the node is stuck or not syncing`,
    `check the node behind chain ${chainId}'s RPC URL (synced, peers), or use another RPC`,
    chainId,
  );
}
