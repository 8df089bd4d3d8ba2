import { zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { intentAccountAbi, intentFactoryAbi } from '../../src/contracts/abis.generated.ts';
import { encodeDeploy } from '../../src/contracts/calldata.ts';
import { hashIntent } from '../../src/contracts/hash-intent.ts';
import { predictIntentAddress } from '../../src/contracts/predict-intent-address.ts';
import type { TestChain } from '../harness/chain.ts';
import { buildRoute } from './route.ts';
import { useTestChains } from './use-test-chains.ts';

describe('intent hash and address computed off-chain', () => {
  let origin: TestChain;
  let dest: TestChain;
  useTestChains([7_770_301, 7_770_302], (started) => {
    [origin, dest] = started;
  });

  const route = () =>
    buildRoute({
      origin,
      dest,
      depositAmount: 100_000_000n,
      feeAmount: 500_000n,
      outputAmount: 99_000_000n,
      recipient: origin.accounts.stranger.address,
    });

  it('places the contracts at the same addresses on both chains', () => {
    expect(dest.contracts).toEqual(origin.contracts);
  });

  it('hashIntent in TypeScript equals IntentFactory.hashIntent on-chain', async () => {
    const r = await route();
    const { intentFactory } = origin.contracts;
    const onOrigin = await origin.publicClient.readContract({
      address: intentFactory,
      abi: intentFactoryAbi,
      functionName: 'hashIntent',
      args: [r.origin],
    });
    const onDest = await dest.publicClient.readContract({
      address: intentFactory,
      abi: intentFactoryAbi,
      functionName: 'hashIntent',
      args: [r.dest],
    });
    expect(onOrigin).toBe(hashIntent(r.origin, intentFactory));
    expect(onDest).toBe(hashIntent(r.dest, intentFactory));
  });

  it('predictIntentAddress equals IntentFactory.predict and the deployed account', async () => {
    const r = await route();
    const { intentFactory, intentAccountImplementation } = origin.contracts;
    const predicted = predictIntentAddress({
      factory: intentFactory,
      implementation: intentAccountImplementation,
      intentHash: r.originHash,
    });
    const onChain = await origin.publicClient.readContract({
      address: intentFactory,
      abi: intentFactoryAbi,
      functionName: 'predict',
      args: [r.originHash],
    });
    expect(onChain).toBe(predicted);
    expect(await origin.publicClient.getCode({ address: predicted })).toBeUndefined();

    await origin.send('stranger', { to: intentFactory, data: encodeDeploy(r.origin) });
    expect(await origin.publicClient.getCode({ address: predicted })).toMatch(/^0x.{20,}/);
    const committed = await origin.publicClient.readContract({
      address: predicted,
      abi: intentAccountAbi,
      functionName: 'intentHash',
    });
    expect(committed).toBe(r.originHash);
    // Deploying again is a no-op (idempotent), not a failure.
    await origin.send('relayer', { to: intentFactory, data: encodeDeploy(r.origin) });
  });

  it('gives a different hash and address when any single field changes', async () => {
    const r = await route();
    const { intentFactory: factory, intentAccountImplementation: implementation } = origin.contracts;
    const variants = [
      { ...r.origin, chainId: r.origin.chainId + 1n },
      { ...r.origin, refundRecipient: origin.accounts.stranger.address },
      { ...r.origin, executor: zeroAddress },
      { ...r.origin, depositAmount: r.origin.depositAmount + 1n },
      { ...r.origin, calls: r.origin.calls.slice(1) },
    ];
    for (const variant of variants) {
      const hash = hashIntent(variant, factory);
      expect(hash).not.toBe(r.originHash);
      expect(predictIntentAddress({ factory, implementation, intentHash: hash })).not.toBe(r.originAccount);
    }
  });
});
