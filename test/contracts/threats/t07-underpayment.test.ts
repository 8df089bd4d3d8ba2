/**
 * Threat 7 (contracts-brief §3): underpayment. The amount is strict: with less than depositAmount present,
 * execute reverts (nothing moves), a top-up makes it executable, and after the deadline the partial deposit
 * goes back in full.
 */
import { describe, expect, it } from 'vitest';
import type { TestChain } from '../../harness/chain.ts';
import type { Route } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  deposit,
  executeViaFactory,
  expectExecuteReverts,
  refundViaFactory,
  sameChainRoute,
} from './support/fixture.ts';

/** The brief's 99/100, in base units: the smallest shortfalls are the interesting ones. */
const DEPOSIT = 100n;
const SHORT = 99n;
const FEE = 1n;
const OUTPUT = 98n;

describe('threat 7: underpayment', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_007], ([started]) => {
    chain = started;
  });

  async function underpaidRoute(): Promise<Route> {
    const route = await sameChainRoute(chain, {
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
    });
    await deposit(chain, chain.tokens.usdc, route.originAccount, SHORT);
    const args = await expectExecuteReverts(chain, route.origin, 'InsufficientDeposit');
    expect(args).toEqual([DEPOSIT, SHORT]);
    expect(await chain.balanceOf(chain.tokens.usdc, route.originAccount)).toBe(SHORT);
    expect(await chain.balanceOf(chain.tokens.usdc, chain.accounts.feeCollector.address)).toBe(0n);
    return route;
  }

  it('test_execute_revertsInsufficientDeposit_at99of100_thenSucceedsAfterATopUpOf1', async () => {
    const route = await underpaidRoute();
    const { usdc } = chain.tokens;
    await deposit(chain, usdc, route.originAccount, DEPOSIT - SHORT);
    await chain.send('relayer', executeViaFactory(chain, route.origin));
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(FEE);
    expect(await chain.balanceOf(usdc, chain.contracts.originSettler)).toBe(DEPOSIT - FEE);
    expect(await chain.balanceOf(usdc, route.originAccount)).toBe(0n);
  });

  it('test_refund_returnsTheFull99_afterTheDeadline_toTheOwner', async () => {
    const route = await underpaidRoute();
    const { usdc } = chain.tokens;
    const user = chain.accounts.user.address;
    const userBefore = await chain.balanceOf(usdc, user);
    await chain.increaseTime(route.origin.deadline - (await chain.now()));
    await chain.send('stranger', refundViaFactory(chain, route.origin, [usdc], false));
    expect(await chain.balanceOf(usdc, user)).toBe(userBefore + SHORT);
    expect(await chain.balanceOf(usdc, route.originAccount)).toBe(0n);
    expect(await chain.balanceOf(usdc, chain.contracts.originSettler)).toBe(0n);
  });
});
