/**
 * Threats #17 and #18 of contracts-brief §3 on one anvil chain:
 * #17 a caller starves the destination calls of gas to force the refund path → `InsufficientGas` instead;
 * #18 a refund list holding a token or recipient that fails → the failing one is skipped, the rest arrive.
 */
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { intentAccountAbi, returnBombTokenAbi } from '../../../src/contracts/abis.generated.ts';
import {
  encodeDeploy,
  encodeDeployIfNeededAndRefund,
  encodeExecute,
} from '../../../src/contracts/calldata.ts';
import { AccountState, type Intent, IntentMode } from '../../../src/contracts/types.ts';
import { expectRevert, type TestChain } from '../../harness/chain.ts';
import { accountAddress, DEST_MIN_GAS, INTENT_WINDOW_SECONDS, transferCall } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import { accountStateOf, userIntent } from './support/fixture.ts';
import { sendWithGas, transferToken, USDC } from './t13-t23-support.ts';

const AMOUNT = 40n * USDC;
/** Upper bound of the gas search: far above what one destination execute needs. */
const GAS_SEARCH_CEILING = 5_000_000n;
/**
 * How far below minGas the starved call may land. Only the account's own entry code runs before the check,
 * so one unit less gas for the transaction is about one unit less at the check; 64 leaves room for rounding.
 */
const STARVED_GAS_SLACK = 64n;
/** Revert payload of the armed return-bomb token: 100 kB, enough to hurt a caller that copies it. */
const RETURN_BOMB_BYTES = 100_000n;

describe('threats #17–#18', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_317], ([started]) => {
    chain = started;
  });

  const usdc = (holder: Address) => chain.balanceOf(chain.tokens.usdc, holder);

  /** A USDC intent of the user for AMOUNT that anyone may execute, unless `p` says otherwise. */
  async function intentWith(p: Partial<Intent> & Pick<Intent, 'calls'>): Promise<Intent> {
    return userIntent(chain, {
      executor: zeroAddress,
      deadline: (await chain.now()) + INTENT_WINDOW_SECONDS,
      depositToken: chain.tokens.usdc,
      depositAmount: AMOUNT,
      ...p,
    });
  }

  /** Deploys the account for `intent` (as a stranger would) and returns its address. */
  async function deployAccount(intent: Intent): Promise<Address> {
    await chain.send('stranger', { to: chain.contracts.intentFactory, data: encodeDeploy(intent) });
    return accountAddress(chain, intent).address;
  }

  /** The least gas limit with which `data` sent to `to` by the stranger succeeds (binary search on eth_call). */
  async function leastSufficientGas(to: Address, data: Hex): Promise<bigint> {
    const succeeds = (gas: bigint) =>
      chain.publicClient.call({ account: chain.accounts.stranger, to, data, gas }).then(
        () => true,
        () => false,
      );
    let low = 21_000n;
    let high = GAS_SEARCH_CEILING;
    if (!(await succeeds(high))) throw new Error('execute fails even with the search ceiling');
    while (high - low > 1n) {
      const mid = (low + high) / 2n;
      if (await succeeds(mid)) high = mid;
      else low = mid;
    }
    return high;
  }

  describe('#17 IntentAccount.execute (destination) under a gas-starving caller', () => {
    it('reverts InsufficientGas with barely too little gas, refunds nothing, and stays executable', async () => {
      const recipient = privateKeyToAddress(generatePrivateKey());
      const { user } = chain.accounts;
      const intent = await intentWith({
        mode: IntentMode.Destination,
        minGas: DEST_MIN_GAS,
        calls: [transferCall(chain.tokens.usdc, recipient, AMOUNT)],
      });
      const account = await deployAccount(intent);
      // The fill: the solver's tokens reach the destination account.
      await chain.mint(chain.tokens.usdc, account, AMOUNT);
      const userBefore = await usdc(user.address);
      const data = encodeExecute(intent);

      const enough = await leastSufficientGas(account, data);
      const starved = enough - 1n;
      const args = await expectRevert(
        chain.publicClient.call({ account: chain.accounts.stranger, to: account, data, gas: starved }),
        'InsufficientGas',
      );
      expect(args[0]).toBe(DEST_MIN_GAS);
      const left = args[1] as bigint;
      expect(left).toBeLessThan(DEST_MIN_GAS);
      expect(DEST_MIN_GAS - left).toBeLessThanOrEqual(STARVED_GAS_SLACK);

      // Mined with that gas limit, the griefing transaction reverts: no DestinationFailed, no refund.
      const griefing = await sendWithGas(chain, 'stranger', { to: account, data, gas: starved });
      expect(griefing.status).toBe('reverted');
      expect(await usdc(account)).toBe(AMOUNT);
      expect(await usdc(user.address)).toBe(userBefore);
      expect(await usdc(recipient)).toBe(0n);
      expect(await accountStateOf(chain, account)).toBe(AccountState.None);

      // With enough gas the calls run and the recipient is paid.
      const receipt = await sendWithGas(chain, 'stranger', { to: account, data, gas: enough });
      expect(receipt.status).toBe('success');
      expect(executedFlag(receipt)).toBe(true);
      expect(await usdc(recipient)).toBe(AMOUNT);
      expect(await usdc(user.address)).toBe(userBefore);
    });
  });

  describe('#18 IntentAccount.refund with a failing token or recipient', () => {
    it('refund [returnBomb, usdc]: usdc reaches the owner, RefundSkipped(returnBomb), the bomb stays for a retry', async () => {
      const { user } = chain.accounts;
      const bomb = getAddress(await chain.deploy('ReturnBombToken'));
      const intent = await intentWith({ calls: [transferCall(chain.tokens.usdc, user.address, AMOUNT)] });
      const { address: account } = accountAddress(chain, intent);
      await chain.mint(chain.tokens.usdc, account, AMOUNT);
      await chain.mint(bomb, account, AMOUNT);
      await chain.send('deployer', {
        to: bomb,
        data: encodeFunctionData({ abi: returnBombTokenAbi, functionName: 'arm', args: [RETURN_BOMB_BYTES] }),
      });
      await chain.increaseTime(INTENT_WINDOW_SECONDS);
      const userBefore = await usdc(user.address);

      const receipt = await chain.send('stranger', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndRefund(intent, [bomb, chain.tokens.usdc], false),
      });
      expect(skippedTokens(receipt)).toEqual([bomb]);
      expect(refundedTokens(receipt)).toEqual([
        { token: chain.tokens.usdc, amount: AMOUNT, to: user.address },
      ]);
      expect(await usdc(user.address)).toBe(userBefore + AMOUNT);
      expect(await usdc(account)).toBe(0n);
      expect(await chain.balanceOf(bomb, account)).toBe(AMOUNT);
      expect(await chain.balanceOf(bomb, user.address)).toBe(0n);

      // Once the token behaves, anyone can retry and the rest arrives.
      await chain.send('deployer', {
        to: bomb,
        data: encodeFunctionData({ abi: returnBombTokenAbi, functionName: 'arm', args: [0n] }),
      });
      await chain.send('stranger', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndRefund(intent, [bomb], false),
      });
      expect(await chain.balanceOf(bomb, user.address)).toBe(AMOUNT);
      expect(await chain.balanceOf(bomb, account)).toBe(0n);
    });

    it('a refund recipient that rejects native: RefundSkipped(native), the ERC-20 still arrives, native stays', async () => {
      const rejecter = getAddress(await chain.deploy('RevertingTarget'));
      const intent = await intentWith({
        refundRecipient: rejecter,
        calls: [transferCall(chain.tokens.usdc, rejecter, AMOUNT)],
      });
      const { address: account } = accountAddress(chain, intent);
      const nativeAmount = 10n ** 15n;
      await chain.mint(chain.tokens.usdc, account, AMOUNT);
      await chain.send('user', { to: account, data: '0x', value: nativeAmount });
      await chain.increaseTime(INTENT_WINDOW_SECONDS);

      const receipt = await chain.send('stranger', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndRefund(intent, [chain.tokens.usdc], true),
      });
      expect(skippedTokens(receipt)).toEqual([zeroAddress]);
      expect(refundedTokens(receipt)).toEqual([{ token: chain.tokens.usdc, amount: AMOUNT, to: rejecter }]);
      expect(await usdc(rejecter)).toBe(AMOUNT);
      expect(await chain.balanceOf(zeroAddress, account)).toBe(nativeAmount);
      expect(await chain.balanceOf(zeroAddress, rejecter)).toBe(0n);
    });

    it('execute with a failing sweep token still completes: the deposit leftovers reach the owner', async () => {
      const { user } = chain.accounts;
      const bomb = getAddress(await chain.deploy('ReturnBombToken'));
      const recipient = privateKeyToAddress(generatePrivateKey());
      const half = AMOUNT / 2n;
      const intent = await intentWith({
        executor: chain.accounts.relayer.address,
        calls: [transferCall(chain.tokens.usdc, recipient, half)],
        sweepTokens: [bomb],
      });
      const account = await deployAccount(intent);
      await chain.mint(chain.tokens.usdc, user.address, AMOUNT);
      await transferToken(chain, 'user', chain.tokens.usdc, account, AMOUNT);
      await chain.mint(bomb, account, AMOUNT);
      await chain.send('deployer', {
        to: bomb,
        data: encodeFunctionData({ abi: returnBombTokenAbi, functionName: 'arm', args: [RETURN_BOMB_BYTES] }),
      });
      const userBefore = await usdc(user.address);

      const receipt = await chain.send('relayer', { to: account, data: encodeExecute(intent) });
      expect(skippedTokens(receipt)).toEqual([bomb]);
      expect(await usdc(recipient)).toBe(half);
      expect(await usdc(user.address)).toBe(userBefore + half);
      expect(await chain.balanceOf(bomb, account)).toBe(AMOUNT);
    });
  });
});

function executedFlag(receipt: TransactionReceipt): boolean | undefined {
  return parseEventLogs({ abi: intentAccountAbi, eventName: 'Executed', logs: receipt.logs })[0]?.args
    .callsSucceeded;
}

function skippedTokens(receipt: TransactionReceipt): Address[] {
  return parseEventLogs({ abi: intentAccountAbi, eventName: 'RefundSkipped', logs: receipt.logs }).map(
    (log) => log.args.token,
  );
}

function refundedTokens(receipt: TransactionReceipt): { token: Address; amount: bigint; to: Address }[] {
  return parseEventLogs({ abi: intentAccountAbi, eventName: 'Refunded', logs: receipt.logs }).map((log) => ({
    token: log.args.token,
    amount: log.args.amount,
    to: log.args.to,
  }));
}
