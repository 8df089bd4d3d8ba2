/**
 * Threat 3 (contracts-brief §3): replay on another chain. The factory and implementation sit at the same
 * addresses on every chain, so address(O) exists on chain B too. Funds sent there by mistake cannot be spent
 * by executing O on B (its chain id is committed), and anyone can send them back to the owner on B.
 */
import { parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { intentAccountAbi } from '../../../src/contracts/abis.generated.ts';
import { encodeExecute } from '../../../src/contracts/calldata.ts';
import { AccountState } from '../../../src/contracts/types.ts';
import type { TestChain } from '../../harness/chain.ts';
import { accountAddress, buildRoute, DEPOSIT, FEE, OUTPUT } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  accountStateOf,
  deposit,
  executeViaFactory,
  expectRevertOnChain,
  newAddress,
  refundViaFactory,
  ZERO,
} from './support/fixture.ts';

/** Native sent to the wrong-chain address alongside the tokens. */
const NATIVE = 10n ** 17n;

describe('threat 3: replay of an origin intent on another chain', () => {
  let a: TestChain;
  let b: TestChain;
  useIsolatedTestChains([7_771_031, 7_771_032], (started) => {
    [a, b] = started;
  });

  it('test_execute_revertsWrongChain_onChainB_andAStrangersRefundPaysTheOwnerOnB', async () => {
    expect(b.contracts.intentFactory).toBe(a.contracts.intentFactory);
    expect(b.contracts.intentAccountImplementation).toBe(a.contracts.intentAccountImplementation);
    const route = await buildRoute({
      origin: a,
      dest: b,
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
      recipient: newAddress(),
    });
    // The same intent has the same address on B (the dev tokens also sit at the same addresses there).
    expect(accountAddress(b, route.origin).address).toBe(route.originAccount);
    expect(b.tokens.usdc).toBe(a.tokens.usdc);

    const usdc = b.tokens.usdc;
    const user = b.accounts.user.address;
    await deposit(b, usdc, route.originAccount, DEPOSIT);
    await b.send('user', { to: route.originAccount, value: NATIVE, data: '0x' });

    const args = await expectRevertOnChain(b, 'relayer', executeViaFactory(b, route.origin), 'WrongChain');
    expect(args).toEqual([BigInt(a.chainId), BigInt(b.chainId)]);
    expect(await b.balanceOf(usdc, route.originAccount)).toBe(DEPOSIT);

    const userTokensBefore = await b.balanceOf(usdc, user);
    const userNativeBefore = await b.balanceOf(ZERO, user);
    const receipt = await b.send('stranger', refundViaFactory(b, route.origin, [usdc], true));
    expect(await b.balanceOf(usdc, user)).toBe(userTokensBefore + DEPOSIT);
    expect(await b.balanceOf(ZERO, user)).toBe(userNativeBefore + NATIVE);
    expect(await b.balanceOf(usdc, route.originAccount)).toBe(0n);
    expect(await b.balanceOf(usdc, b.accounts.stranger.address)).toBe(0n);
    const refunded = parseEventLogs({ abi: intentAccountAbi, eventName: 'Refunded', logs: receipt.logs });
    expect(refunded.map((e) => e.args.to)).toEqual([user, user]);

    // Still unexecutable on B after the account exists there.
    const again = await expectRevertOnChain(
      b,
      'relayer',
      { to: route.originAccount, data: encodeExecute(route.origin) },
      'WrongChain',
    );
    expect(again).toEqual([BigInt(a.chainId), BigInt(b.chainId)]);

    // On its own chain A the intent is untouched and runs as quoted.
    await deposit(a, a.tokens.usdc, route.originAccount, DEPOSIT);
    await a.send('relayer', executeViaFactory(a, route.origin));
    expect(await a.balanceOf(a.tokens.usdc, a.contracts.originSettler)).toBe(DEPOSIT - FEE);
    const stateOnA = await accountStateOf(a, route.originAccount);
    expect(stateOnA).toBe(AccountState.Executed);
  });
});
