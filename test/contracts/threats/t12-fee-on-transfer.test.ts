/**
 * Threat 12 (contracts-brief §3): a fee-on-transfer token. Uniswap v2-periphery's DeflatingERC20 (as shipped
 * on npm) burns 1% of every transfer. OriginSettler.open measures what it actually received, so locking such a
 * token reverts ShortTransfer — no order records more than the escrow holds — and the intent stays refundable.
 */
import { type Address, encodeFunctionData, erc20Abi, getAddress, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { encodeDeploy, encodeRefund } from '../../../src/contracts/calldata.ts';
import { AccountState } from '../../../src/contracts/types.ts';
import type { TestChain } from '../../harness/chain.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  accountStateOf,
  decodeReason,
  expectExecuteReverts,
  newAddress,
  refundViaFactory,
  WINDOW_SECONDS,
} from './support/fixture.ts';
import { LOCK_OPEN_CALL, type LockIntent, lockIntent } from './support/lock-intent.ts';
import { deployNpmArtifact } from './support/npm-artifact.ts';

const DEFLATING_ARTIFACT = '@uniswap/v2-periphery/build/DeflatingERC20.json';
/** DeflatingERC20 mints its whole supply to the deployer. */
const TOTAL_SUPPLY = 10n ** 24n;
/** DeflatingERC20 burns value / 100 of every transfer. */
const burned = (value: bigint): bigint => value / 100n;
const afterBurn = (value: bigint): bigint => value - burned(value);
/** What the user sends to the intent address; the account receives 1% less, which is its committed deposit. */
const SENT = 1_000_000n;
const HELD = afterBurn(SENT);

describe('threat 12: fee-on-transfer token on the lock path', () => {
  let chain: TestChain;
  let token: Address;
  useIsolatedTestChains([7_771_012], async ([started]) => {
    chain = started;
    token = getAddress(await deployNpmArtifact(chain, DEFLATING_ARTIFACT, [TOTAL_SUPPLY]));
  });

  async function transfer(from: 'deployer' | 'user', to: Address, amount: bigint): Promise<void> {
    await chain.send(from, {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
    });
  }

  /** A lock intent in the deflating token, funded by the user, whose execute has just reverted ShortTransfer. */
  async function refusedLock(): Promise<LockIntent> {
    const lock = lockIntent(chain, {
      token,
      depositAmount: HELD,
      outputAmount: HELD,
      deadline: (await chain.now()) + WINDOW_SECONDS,
      recipient: newAddress(),
    });
    const user = chain.accounts.user.address;
    await transfer('deployer', user, 2n * SENT);
    await transfer('user', lock.account, SENT);
    expect(await chain.balanceOf(token, lock.account)).toBe(HELD);

    const args = await expectExecuteReverts(chain, lock.intent, 'CallFailed');
    expect(args[0]).toBe(BigInt(LOCK_OPEN_CALL));
    expect(decodeReason(args[1] as Hex)).toEqual({
      errorName: 'ShortTransfer',
      args: [HELD, afterBurn(HELD)],
    });
    expect(await chain.balanceOf(token, lock.account)).toBe(HELD);
    expect(await chain.balanceOf(token, chain.contracts.originSettler)).toBe(0n);
    return lock;
  }

  it('test_open_revertsShortTransfer_andTheOwnerCanCancelAndGetTheTokensBack', async () => {
    const lock = await refusedLock();
    const user = chain.accounts.user.address;
    const userBefore = await chain.balanceOf(token, user);
    await chain.send('relayer', { to: chain.contracts.intentFactory, data: encodeDeploy(lock.intent) });
    await chain.send('user', { to: lock.account, data: encodeRefund(lock.intent, [token], false) });
    // The refund transfer itself burns 1%: the user gets everything the account held, less the token's own fee.
    expect(await chain.balanceOf(token, user)).toBe(userBefore + afterBurn(HELD));
    expect(await chain.balanceOf(token, lock.account)).toBe(0n);
    const state = await accountStateOf(chain, lock.account);
    expect(state).toBe(AccountState.Cancelled);
  });

  it('test_open_revertsShortTransfer_andAStrangerRefundsTheOwnerAfterTheDeadline', async () => {
    const lock = await refusedLock();
    const user = chain.accounts.user.address;
    const userBefore = await chain.balanceOf(token, user);
    await chain.increaseTime(lock.intent.deadline - (await chain.now()));
    await chain.send('stranger', refundViaFactory(chain, lock.intent, [token], false));
    expect(await chain.balanceOf(token, user)).toBe(userBefore + afterBurn(HELD));
    expect(await chain.balanceOf(token, lock.account)).toBe(0n);
    expect(await chain.balanceOf(token, chain.contracts.originSettler)).toBe(0n);
  });
});
