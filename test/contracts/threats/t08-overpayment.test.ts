/**
 * Threat 8 (contracts-brief §3): overpayment. Anything above depositAmount goes back to the owner inside the
 * execute transaction itself; the relayer, the fee collector and the escrow get exactly what was quoted.
 */
import { erc20Abi, parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { intentAccountAbi } from '../../../src/contracts/abis.generated.ts';
import type { TestChain } from '../../harness/chain.ts';
import { DEPOSIT, FEE, OUTPUT } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import { deposit, executeViaFactory, sameChainRoute, USDC } from './support/fixture.ts';

const PAID = 150n * USDC;

describe('threat 8: overpayment', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_008], ([started]) => {
    chain = started;
  });

  it('test_execute_returns50of150ToTheOwner_inTheExecuteTransaction', async () => {
    const route = await sameChainRoute(chain, {
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
    });
    const { usdc } = chain.tokens;
    const { user, relayer, feeCollector } = chain.accounts;
    await deposit(chain, usdc, route.originAccount, PAID);
    const userBefore = await chain.balanceOf(usdc, user.address);

    const receipt = await chain.send('relayer', executeViaFactory(chain, route.origin));
    expect(await chain.balanceOf(usdc, user.address)).toBe(userBefore + (PAID - DEPOSIT));
    expect(await chain.balanceOf(usdc, feeCollector.address)).toBe(FEE);
    expect(await chain.balanceOf(usdc, chain.contracts.originSettler)).toBe(DEPOSIT - FEE);
    expect(await chain.balanceOf(usdc, relayer.address)).toBe(0n);
    expect(await chain.balanceOf(usdc, route.originAccount)).toBe(0n);

    // The surplus moved in this very transaction, from the account to the owner.
    const refunds = parseEventLogs({ abi: intentAccountAbi, eventName: 'Refunded', logs: receipt.logs });
    expect(refunds.map((e) => e.args)).toEqual([{ token: usdc, amount: PAID - DEPOSIT, to: user.address }]);
    const transfersToOwner = parseEventLogs({
      abi: erc20Abi,
      eventName: 'Transfer',
      logs: receipt.logs,
    }).filter((e) => e.args.from === route.originAccount && e.args.to === user.address);
    expect(transfersToOwner.map((e) => e.args.value)).toEqual([PAID - DEPOSIT]);
  });
});
