/**
 * Threat 4 (contracts-brief §3): executing an intent twice. The account marks itself Executed before any
 * external call, so a second execute reverts, and a later deposit can only go back to the owner.
 */
import { describe, expect, it } from 'vitest';
import { encodeExecute, encodeRefund } from '../../../src/contracts/calldata.ts';
import { AccountState } from '../../../src/contracts/types.ts';
import type { TestChain } from '../../harness/chain.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  accountStateOf,
  deposit,
  duePayment,
  executeViaFactory,
  expectExecuteReverts,
  expectRevertOnChain,
  newAddress,
  USDC,
} from './support/fixture.ts';

const AMOUNT = 100n * USDC;

describe('threat 4: double execute', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_004], ([started]) => {
    chain = started;
  });

  it('test_execute_revertsInvalidStateOnSecondExecute_andALaterDepositIsOnlyRefundable', async () => {
    const recipient = newAddress();
    const { intent, account } = await duePayment(chain, { recipient, amount: AMOUNT });
    const { usdc } = chain.tokens;
    const user = chain.accounts.user.address;
    await deposit(chain, usdc, account, AMOUNT);
    await chain.send('relayer', executeViaFactory(chain, intent));
    expect(await chain.balanceOf(usdc, recipient)).toBe(AMOUNT);

    // A second deposit arrives (a duplicate payment); the relayer tries to run the intent again.
    await deposit(chain, usdc, account, AMOUNT);
    const userBefore = await chain.balanceOf(usdc, user);
    const direct = await expectRevertOnChain(
      chain,
      'relayer',
      { to: account, data: encodeExecute(intent) },
      'InvalidState',
    );
    expect(direct).toEqual([AccountState.None, AccountState.Executed]);
    const viaFactory = await expectExecuteReverts(chain, intent, 'InvalidState');
    expect(viaFactory).toEqual([AccountState.None, AccountState.Executed]);
    expect(await chain.balanceOf(usdc, recipient)).toBe(AMOUNT);
    expect(await chain.balanceOf(usdc, account)).toBe(AMOUNT);

    // Anyone may return it, and only to the owner.
    await chain.send('stranger', { to: account, data: encodeRefund(intent, [usdc], false) });
    expect(await chain.balanceOf(usdc, user)).toBe(userBefore + AMOUNT);
    expect(await chain.balanceOf(usdc, account)).toBe(0n);
    expect(await chain.balanceOf(usdc, recipient)).toBe(AMOUNT);
    const state = await accountStateOf(chain, account);
    expect(state).toBe(AccountState.Executed);
  });
});
