/**
 * Threat 6 (contracts-brief §3): a deposit that arrives after the intent's deadline. Execute refuses it
 * (the quote is stale), and anyone can send it back to the owner.
 */
import { describe, expect, it } from 'vitest';
import { encodeDeployIfNeededAndExecute } from '../../../src/contracts/calldata.ts';
import { expectRevert, type TestChain } from '../../harness/chain.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  deposit,
  duePayment,
  executeViaFactory,
  expectRevertOnChain,
  newAddress,
  refundViaFactory,
  USDC,
  WINDOW_SECONDS,
} from './support/fixture.ts';

const AMOUNT = 100n * USDC;

describe('threat 6: deposit after expiry', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_006], ([started]) => {
    chain = started;
  });

  it('test_execute_revertsExpired_afterTheDeadline_andAStrangersRefundPaysTheOwner', async () => {
    const recipient = newAddress();
    const { intent, account } = await duePayment(chain, { recipient, amount: AMOUNT });
    const { usdc } = chain.tokens;
    const user = chain.accounts.user.address;

    await chain.increaseTime(WINDOW_SECONDS + 1n);
    await deposit(chain, usdc, account, AMOUNT);
    const userBefore = await chain.balanceOf(usdc, user);
    const args = await expectRevertOnChain(chain, 'relayer', executeViaFactory(chain, intent), 'Expired');
    expect(args[0]).toBe(intent.deadline);
    expect(args[1] as bigint).toBeGreaterThanOrEqual(intent.deadline);
    expect(await chain.balanceOf(usdc, recipient)).toBe(0n);

    await chain.send('stranger', refundViaFactory(chain, intent, [usdc], false));
    expect(await chain.balanceOf(usdc, user)).toBe(userBefore + AMOUNT);
    expect(await chain.balanceOf(usdc, account)).toBe(0n);
    expect(await chain.balanceOf(usdc, chain.accounts.stranger.address)).toBe(0n);
  });

  it('test_execute_revertsExpired_exactlyAtTheDeadline', async () => {
    const { intent, account } = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
    await deposit(chain, chain.tokens.usdc, account, AMOUNT);
    // The latest block is mined exactly at the deadline; the simulation runs against it.
    await chain.testClient.setNextBlockTimestamp({ timestamp: intent.deadline });
    await chain.testClient.mine({ blocks: 1 });
    expect(await chain.now()).toBe(intent.deadline);
    const args = await expectRevert(
      chain.publicClient.call({
        account: chain.accounts.relayer,
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndExecute(intent),
        blockTag: 'latest',
      }),
      'Expired',
    );
    expect(args).toEqual([intent.deadline, intent.deadline]);
    expect(await chain.balanceOf(chain.tokens.usdc, account)).toBe(AMOUNT);
  });
});
