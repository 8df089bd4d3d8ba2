/**
 * Threat 10 (contracts-brief §3): native currency sent to an intent address before its account exists.
 * CREATE2 onto a funded address keeps the balance, so the account can then execute a native intent with it,
 * or refund it.
 */
import { type Address, parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import type { TestChain } from '../../harness/chain.ts';
import { accountAddress } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  deposit,
  executeViaFactory,
  newAddress,
  paymentIntent,
  refundViaFactory,
  USDC,
  WINDOW_SECONDS,
  ZERO,
} from './support/fixture.ts';

const NATIVE_AMOUNT = parseEther('1');
const NATIVE_PAID = parseEther('1.5');

describe('threat 10: native sent before deployment', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_010], ([started]) => {
    chain = started;
  });

  async function sendNativeTo(to: Address, value: bigint): Promise<void> {
    await chain.send('user', { to, value, data: '0x' });
  }

  async function hasCode(address: Address): Promise<boolean> {
    const code = await chain.publicClient.getCode({ address });
    return code !== undefined && code !== '0x';
  }

  it('test_deployIfNeededAndExecute_spendsNativeSentBeforeDeployment_andReturnsTheSurplus', async () => {
    const recipient = newAddress();
    const intent = paymentIntent(chain, {
      recipient,
      amount: NATIVE_AMOUNT,
      token: ZERO,
      deadline: (await chain.now()) + WINDOW_SECONDS,
    });
    const { address: account } = accountAddress(chain, intent);
    const user = chain.accounts.user.address;
    await sendNativeTo(account, NATIVE_PAID);
    expect(await hasCode(account)).toBe(false);
    expect(await chain.balanceOf(ZERO, account)).toBe(NATIVE_PAID);

    const userBefore = await chain.balanceOf(ZERO, user);
    await chain.send('relayer', executeViaFactory(chain, intent));
    expect(await hasCode(account)).toBe(true);
    expect(await chain.balanceOf(ZERO, recipient)).toBe(NATIVE_AMOUNT);
    expect(await chain.balanceOf(ZERO, account)).toBe(0n);
    // The user sent no transaction here, so the surplus is their exact balance change.
    expect(await chain.balanceOf(ZERO, user)).toBe(userBefore + (NATIVE_PAID - NATIVE_AMOUNT));
  });

  it('test_deployIfNeededAndRefund_returnsNativeSentBeforeDeployment_toTheOwner', async () => {
    const intent = paymentIntent(chain, {
      recipient: newAddress(),
      amount: 100n * USDC,
      deadline: (await chain.now()) + WINDOW_SECONDS,
    });
    const { address: account } = accountAddress(chain, intent);
    const user = chain.accounts.user.address;
    // Native arrives at a USDC intent's address (the wrong asset, before deployment), and the USDC too.
    await sendNativeTo(account, NATIVE_AMOUNT);
    await deposit(chain, chain.tokens.usdc, account, 100n * USDC);
    expect(await hasCode(account)).toBe(false);
    const nativeBefore = await chain.balanceOf(ZERO, user);
    const usdcBefore = await chain.balanceOf(chain.tokens.usdc, user);

    await chain.increaseTime(intent.deadline - (await chain.now()));
    await chain.send('stranger', refundViaFactory(chain, intent, [chain.tokens.usdc], true));
    expect(await hasCode(account)).toBe(true);
    expect(await chain.balanceOf(ZERO, user)).toBe(nativeBefore + NATIVE_AMOUNT);
    expect(await chain.balanceOf(chain.tokens.usdc, user)).toBe(usdcBefore + 100n * USDC);
    expect(await chain.balanceOf(ZERO, account)).toBe(0n);
  });
});
