/**
 * Threat 9 (contracts-brief §3): the user sends token Y instead of the committed X. Execute refuses (no X is
 * present), nobody but the owner gains anything, and refunds take any token list, so Y goes back to the owner.
 */
import { describe, expect, it } from 'vitest';
import { encodeDeploy, encodeExecute, encodeRefund } from '../../../src/contracts/calldata.ts';
import { AccountState, type Intent } from '../../../src/contracts/types.ts';
import type { TestChain } from '../../harness/chain.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  accountStateOf,
  deposit,
  duePayment,
  expectExecuteReverts,
  expectRevertOnChain,
  newAddress,
  refundViaFactory,
  USDC,
} from './support/fixture.ts';

const AMOUNT = 100n * USDC;
/** 100 DAI (18 decimals): the "same" amount in the wrong token. */
const WRONG_AMOUNT = 100n * 10n ** 18n;

describe('threat 9: wrong token deposited', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_009], ([started]) => {
    chain = started;
  });

  /** A USDC intent funded with DAI; the relayer's execute is refused and leaves the relayer's balances alone. */
  async function fundedWithWrongToken(): Promise<{ intent: Intent; account: `0x${string}` }> {
    const { intent, account } = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
    const { usdc, dai } = chain.tokens;
    const relayer = chain.accounts.relayer.address;
    await deposit(chain, dai, account, WRONG_AMOUNT);
    const relayerBefore = [await chain.balanceOf(usdc, relayer), await chain.balanceOf(dai, relayer)];
    const args = await expectExecuteReverts(chain, intent, 'InsufficientDeposit');
    expect(args).toEqual([AMOUNT, 0n]);
    expect([await chain.balanceOf(usdc, relayer), await chain.balanceOf(dai, relayer)]).toEqual(
      relayerBefore,
    );
    expect(await chain.balanceOf(dai, account)).toBe(WRONG_AMOUNT);
    // Before the deadline the relayer cannot move it either.
    const refused = await expectRevertOnChain(
      chain,
      'relayer',
      refundViaFactory(chain, intent, [dai], false),
      'RefundNotAllowed',
    );
    expect(refused.slice(0, 3)).toEqual([chain.accounts.user.address, relayer, intent.deadline]);
    return { intent, account };
  }

  it('test_refund_ofTheWrongTokenByTheOwner_paysTheOwner_andCancelsTheIntent', async () => {
    const { intent, account } = await fundedWithWrongToken();
    const { usdc, dai } = chain.tokens;
    const user = chain.accounts.user.address;
    const daiBefore = await chain.balanceOf(dai, user);
    await chain.send('relayer', { to: chain.contracts.intentFactory, data: encodeDeploy(intent) });
    await chain.send('user', { to: account, data: encodeRefund(intent, [dai], false) });
    expect(await chain.balanceOf(dai, user)).toBe(daiBefore + WRONG_AMOUNT);
    expect(await chain.balanceOf(dai, account)).toBe(0n);
    const state = await accountStateOf(chain, account);
    expect(state).toBe(AccountState.Cancelled);

    // A late correct deposit cannot revive it: the cancelled intent only refunds.
    await deposit(chain, usdc, account, AMOUNT);
    const args = await expectRevertOnChain(
      chain,
      'relayer',
      { to: account, data: encodeExecute(intent) },
      'InvalidState',
    );
    expect(args).toEqual([AccountState.None, AccountState.Cancelled]);
  });

  it('test_refund_ofTheWrongTokenByAStrangerAfterTheDeadline_paysTheOwner', async () => {
    const { intent, account } = await fundedWithWrongToken();
    const { dai } = chain.tokens;
    const user = chain.accounts.user.address;
    const daiBefore = await chain.balanceOf(dai, user);
    await chain.increaseTime(intent.deadline - (await chain.now()));
    await chain.send('stranger', refundViaFactory(chain, intent, [dai], false));
    expect(await chain.balanceOf(dai, user)).toBe(daiBefore + WRONG_AMOUNT);
    expect(await chain.balanceOf(dai, account)).toBe(0n);
    expect(await chain.balanceOf(dai, chain.accounts.stranger.address)).toBe(0n);
  });
});
