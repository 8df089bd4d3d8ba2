/**
 * Threat 5 (contracts-brief §3): front-running the deploy. Every parameter is in the account's initcode (its
 * one immutable argument is the intent hash) and there is no initializer, so an attacker who deploys the
 * account first changes nothing, and the relayer's deployIfNeededAndExecute still runs the intent.
 */
import { parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { intentAccountAbi, intentFactoryAbi } from '../../../src/contracts/abis.generated.ts';
import { encodeDeploy, encodeExecute } from '../../../src/contracts/calldata.ts';
import { AccountState } from '../../../src/contracts/types.ts';
import type { TestChain } from '../../harness/chain.ts';
import { DEPOSIT, FEE, OUTPUT } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import { deposit, executeViaFactory, expectRevertOnChain, sameChainRoute } from './support/fixture.ts';

describe('threat 5: front-running the deploy', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_005], ([started]) => {
    chain = started;
  });

  it('test_deployIfNeededAndExecute_succeeds_afterAnAttackerDeployedTheAccountFirst', async () => {
    const route = await sameChainRoute(chain, {
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
    });
    const { usdc } = chain.tokens;
    await deposit(chain, usdc, route.originAccount, DEPOSIT);

    // The attacker deploys first, twice: the first emits IntentDeployed at address(O), the second is a no-op.
    const first = await chain.send('stranger', {
      to: chain.contracts.intentFactory,
      data: encodeDeploy(route.origin),
    });
    const deployed = parseEventLogs({ abi: intentFactoryAbi, eventName: 'IntentDeployed', logs: first.logs });
    expect(deployed.map((e) => [e.args.intentHash, e.args.account])).toEqual([
      [route.originHash, route.originAccount],
    ]);
    const second = await chain.send('stranger', {
      to: chain.contracts.intentFactory,
      data: encodeDeploy(route.origin),
    });
    expect(
      parseEventLogs({ abi: intentFactoryAbi, eventName: 'IntentDeployed', logs: second.logs }),
    ).toHaveLength(0);
    const account = { address: route.originAccount, abi: intentAccountAbi } as const;
    expect(await chain.publicClient.readContract({ ...account, functionName: 'intentHash' })).toBe(
      route.originHash,
    );
    expect(await chain.publicClient.readContract({ ...account, functionName: 'state' })).toBe(
      AccountState.None,
    );

    // Deploying gave the attacker no power to execute (the origin executor is the relayer).
    const refused = await expectRevertOnChain(
      chain,
      'stranger',
      { to: route.originAccount, data: encodeExecute(route.origin) },
      'UnauthorizedExecutor',
    );
    expect(refused).toEqual([chain.accounts.relayer.address, chain.accounts.stranger.address]);

    await chain.send('relayer', executeViaFactory(chain, route.origin));
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(FEE);
    expect(await chain.balanceOf(usdc, chain.contracts.originSettler)).toBe(DEPOSIT - FEE);
    expect(await chain.balanceOf(usdc, route.originAccount)).toBe(0n);
    expect(await chain.balanceOf(usdc, chain.accounts.stranger.address)).toBe(0n);
    expect(await chain.publicClient.readContract({ ...account, functionName: 'state' })).toBe(
      AccountState.Executed,
    );
  });
});
