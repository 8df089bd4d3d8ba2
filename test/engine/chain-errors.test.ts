/**
 * Error classification against a real anvil: what the engine retries and what fails a step at once.
 */
import { createPublicClient, encodeFunctionData, erc20Abi, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChainUnavailableError,
  NonceAlreadyUsedError,
  SimulationRevertedError,
} from '../../src/chains/errors.ts';
import { mapChainError } from '../../src/chains/map-chain-error.ts';
import { encodeDeployIfNeededAndExecute } from '../../src/contracts/calldata.ts';
import { isRetryable } from '../../src/engine/is-retryable.ts';
import { buildRoute } from '../contracts/route.ts';
import { startTestChain, type TestChain } from '../harness/chain.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain({ chainId: 7_770_451 });
}, 60_000);
afterAll(async () => {
  await chain?.stop();
});

async function caught(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('mapChainError and isRetryable', () => {
  it('a simulated revert is not retryable and names the contract error with its values', async () => {
    const route = await buildRoute({
      origin: chain,
      dest: chain,
      depositAmount: 1_000_000n,
      feeAmount: 0n,
      outputAmount: 1_000_000n,
      recipient: chain.accounts.stranger.address,
    });
    const error = mapChainError(
      await caught(() =>
        chain.publicClient.estimateGas({
          account: chain.accounts.relayer.address,
          to: chain.contracts.intentFactory,
          data: encodeDeployIfNeededAndExecute(route.origin),
        }),
      ),
    );
    expect(error).toBeInstanceOf(SimulationRevertedError);
    expect(error.message).toBe('the call reverts: InsufficientDeposit(1000000, 0)');
    expect(isRetryable(error)).toBe(false);
  });

  it('an RPC that does not answer is retryable', async () => {
    const dead = createPublicClient({ transport: http('http://127.0.0.1:9', { retryCount: 0 }) });
    const error = mapChainError(await caught(() => dead.getBlockNumber()));
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect(isRetryable(error)).toBe(true);
  });

  it('re-broadcasting a mined transaction is "nonce already used", retryable (the sender resolves it)', async () => {
    const wallet = chain.wallets.user;
    const request = await wallet.prepareTransactionRequest({
      to: chain.tokens.usdc,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [chain.accounts.stranger.address, 1n],
      }),
    });
    const raw = await wallet.signTransaction(request);
    await chain.publicClient.waitForTransactionReceipt({
      hash: await wallet.sendRawTransaction({ serializedTransaction: raw }),
    });
    const error = mapChainError(
      await caught(() => chain.publicClient.request({ method: 'eth_sendRawTransaction', params: [raw] })),
    );
    expect(error).toBeInstanceOf(NonceAlreadyUsedError);
    expect(isRetryable(error)).toBe(true);
  });
});
