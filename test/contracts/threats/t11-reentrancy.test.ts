/**
 * Threat 11 (contracts-brief §3): re-entrancy through token hooks or a malicious vault. A token whose transfers
 * call back into execute/refund (directly or through the factory), into the settlers' open/settle/refund, or
 * into fill is refused by the non-reentrant guards (and accounts set their state before any call); a vault in
 * a destination intent that re-enters sends the destination down its refund path. Balances are conserved.
 */
import { type Address, encodeFunctionData, erc20Abi, getAddress, type Hex, parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  destinationSettlerAbi,
  intentAccountAbi,
  maliciousVaultAbi,
  reentrantTokenAbi,
} from '../../../src/contracts/abis.generated.ts';
import {
  encodeDeploy,
  encodeDeployIfNeededAndExecute,
  encodeDeployIfNeededAndRefund,
  encodeExecute,
  encodeFill,
  encodeOrderRefund,
  encodeRefund,
  encodeSettle,
} from '../../../src/contracts/calldata.ts';
import { computeOrderId } from '../../../src/contracts/order-id.ts';
import {
  AccountState,
  ERC20_AMOUNT_OFFSET,
  FillKind,
  FillStatus,
  type Intent,
  IntentMode,
  type OrderData,
} from '../../../src/contracts/types.ts';
import type { Role, TestChain } from '../../harness/chain.ts';
import { accountAddress, DEST_MIN_GAS } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  accountStateOf,
  decodeReason,
  deposit,
  expectExecuteReverts,
  expectRevertOnChain,
  newAddress,
  paymentIntent,
  randomSalt,
  USDC,
  WINDOW_SECONDS,
  ZERO,
} from './support/fixture.ts';
import { LOCK_OPEN_CALL, lockIntent } from './support/lock-intent.ts';
import { allowanceOf } from './t13-t23-support.ts';

const AMOUNT = 100n * USDC;
/** Gas for transactions whose token transfers run a re-entry hook: enough that no inner call runs short. */
const HOOKED_TX_GAS = 3_000_000n;
/** Byte offset of `assets`, the first argument of `deposit(assets, receiver)`. */
const VAULT_ASSETS_OFFSET = 4;
const GUARD_ERROR = { errorName: 'ReentrancyGuardReentrantCall', args: [] };

describe('threat 11: re-entrancy through token hooks or a malicious vault', () => {
  let chain: TestChain;
  let token: Address;
  useIsolatedTestChains([7_771_011], async ([started]) => {
    chain = started;
    token = await chain.deploy('ReentrantToken');
  });

  /** Sends with HOOKED_TX_GAS (no estimation) and returns the re-entry attempts the token's hook logged. */
  async function sendHooked(from: Role, tx: { to: Address; data: Hex }) {
    const receipt = await chain.send(from, { ...tx, gas: HOOKED_TX_GAS });
    return parseEventLogs({ abi: reentrantTokenAbi, eventName: 'ReentryAttempted', logs: receipt.logs });
  }

  async function armToken(target: Address, data: Hex, bubble: boolean): Promise<void> {
    await chain.send('deployer', {
      to: token,
      data: encodeFunctionData({
        abi: reentrantTokenAbi,
        functionName: 'setReentry',
        args: [target, data, bubble],
      }),
    });
  }

  /** A deployed, funded intent paying `AMOUNT` of the re-entrant token; anyone may execute it, so only the guard and the state stop a re-entry. */
  async function fundedTokenIntent(): Promise<{ intent: Intent; account: Address; recipient: Address }> {
    const recipient = newAddress();
    const intent = paymentIntent(chain, {
      recipient,
      amount: AMOUNT,
      token,
      executor: ZERO,
      deadline: (await chain.now()) + WINDOW_SECONDS,
    });
    const { address: account } = accountAddress(chain, intent);
    await deposit(chain, token, account, AMOUNT);
    await chain.send('relayer', { to: chain.contracts.intentFactory, data: encodeDeploy(intent) });
    return { intent, account, recipient };
  }

  const reentries: [string, (i: Intent, account: Address, factory: Address) => { to: Address; data: Hex }][] =
    [
      ['execute on the account', (i, account) => ({ to: account, data: encodeExecute(i) })],
      ['refund on the account', (i, account) => ({ to: account, data: encodeRefund(i, [token], true) })],
      [
        'deployIfNeededAndExecute on the factory',
        (i, _, f) => ({ to: f, data: encodeDeployIfNeededAndExecute(i) }),
      ],
      [
        'deployIfNeededAndRefund on the factory',
        (i, _, f) => ({ to: f, data: encodeDeployIfNeededAndRefund(i, [token], true) }),
      ],
    ];

  it.each(reentries)('test_execute_reverts_whenTheTokenReenters %s', async (_, reentry) => {
    const { intent, account, recipient } = await fundedTokenIntent();
    const user = chain.accounts.user.address;
    const userBefore = await chain.balanceOf(token, user);
    const call = reentry(intent, account, chain.contracts.intentFactory);
    await armToken(call.to, call.data, true);

    const args = await expectRevertOnChain(
      chain,
      'relayer',
      { to: account, data: encodeExecute(intent) },
      'CallFailed',
    );
    expect(args[0]).toBe(0n);
    expect(decodeReason(args[1] as Hex)).toEqual(GUARD_ERROR);
    expect(await chain.balanceOf(token, account)).toBe(AMOUNT);
    expect(await chain.balanceOf(token, recipient)).toBe(0n);
    expect(await chain.balanceOf(token, user)).toBe(userBefore);
    expect(await accountStateOf(chain, account)).toBe(AccountState.None);
  });

  it('test_execute_paysOnce_whenASwallowedReentryIsRefused', async () => {
    const { intent, account, recipient } = await fundedTokenIntent();
    const user = chain.accounts.user.address;
    const userBefore = await chain.balanceOf(token, user);
    await armToken(account, encodeExecute(intent), false);

    const attempts = await sendHooked('relayer', { to: account, data: encodeExecute(intent) });
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) {
      expect(attempt.args.ok).toBe(false);
      expect(decodeReason(attempt.args.result)).toEqual(GUARD_ERROR);
    }
    expect(await chain.balanceOf(token, recipient)).toBe(AMOUNT);
    expect(await chain.balanceOf(token, account)).toBe(0n);
    expect(await chain.balanceOf(token, user)).toBe(userBefore);
    expect(await accountStateOf(chain, account)).toBe(AccountState.Executed);
  });

  it('test_refund_byTheOwner_isNotTurnedIntoAnExecute_byAReenteringToken', async () => {
    const { intent, account, recipient } = await fundedTokenIntent();
    const user = chain.accounts.user.address;
    const userBefore = await chain.balanceOf(token, user);
    await armToken(account, encodeExecute(intent), false);

    // Explicit gas: estimation can pick a limit at which the hooked transfer runs out of gas and the refund
    // skips the token (it stays for a later refund); see docs/contracts.md, Known gaps.
    const attempts = await sendHooked('user', { to: account, data: encodeRefund(intent, [token], false) });
    expect(attempts.map((a) => a.args.ok)).toEqual([false]);
    expect(decodeReason(attempts[0]!.args.result)).toEqual(GUARD_ERROR);
    expect(await chain.balanceOf(token, user)).toBe(userBefore + AMOUNT);
    expect(await chain.balanceOf(token, recipient)).toBe(0n);
    expect(await accountStateOf(chain, account)).toBe(AccountState.Cancelled);
  });

  it('test_refund_withEstimatedGas_losesNothing_whenTheHookedTransferIsSkipped; a retry returns it', async () => {
    const { intent, account, recipient } = await fundedTokenIntent();
    const user = chain.accounts.user.address;
    const userBefore = await chain.balanceOf(token, user);
    await armToken(account, encodeExecute(intent), false);
    const refund = { to: account, data: encodeRefund(intent, [token], false) };

    // Gas as a wallet would estimate it: the lowest limit at which the transaction succeeds. With a costly
    // hooked transfer that limit lets the transfer run out of gas while the refund itself completes.
    const gas = await chain.publicClient.estimateGas({ account: chain.accounts.user, ...refund });
    const first = await chain.send('user', { ...refund, gas });
    const skipped = parseEventLogs({ abi: intentAccountAbi, eventName: 'RefundSkipped', logs: first.logs });
    const userAfterFirst = await chain.balanceOf(token, user);
    const heldAfterFirst = await chain.balanceOf(token, account);
    expect(userAfterFirst - userBefore + heldAfterFirst).toBe(AMOUNT);
    expect(heldAfterFirst).toBe(skipped.length > 0 ? AMOUNT : 0n);
    expect(await accountStateOf(chain, account)).toBe(AccountState.Cancelled);

    // The intent is cancelled, so anyone may retry; with enough gas everything reaches the owner.
    await chain.send('stranger', { ...refund, gas: HOOKED_TX_GAS });
    expect(await chain.balanceOf(token, user)).toBe(userBefore + AMOUNT);
    expect(await chain.balanceOf(token, account)).toBe(0n);
    expect(await chain.balanceOf(token, recipient)).toBe(0n);
  });

  it('test_execute_reverts_whenTheTokenReentersTheOriginSettler_duringOpen', async () => {
    const lock = lockIntent(chain, {
      token,
      depositAmount: AMOUNT,
      outputAmount: AMOUNT,
      deadline: (await chain.now()) + WINDOW_SECONDS,
      recipient: newAddress(),
    });
    await deposit(chain, token, lock.account, AMOUNT);
    const settler = chain.contracts.originSettler;
    const order = lock.opened(AMOUNT);
    for (const data of [
      encodeOrderRefund(order),
      encodeSettle(order, chain.accounts.relayer.address, '0x'),
    ]) {
      await armToken(settler, data, true);
      const args = await expectExecuteReverts(chain, lock.intent, 'CallFailed');
      expect(args[0]).toBe(BigInt(LOCK_OPEN_CALL));
      expect(decodeReason(args[1] as Hex)).toEqual(GUARD_ERROR);
      expect(await chain.balanceOf(token, lock.account)).toBe(AMOUNT);
      expect(await chain.balanceOf(token, settler)).toBe(0n);
    }
  });

  it('test_fill_reverts_whenTheTokenReentersFill; a refused swallowed re-entry fills exactly once', async () => {
    const solver = chain.accounts.solver.address;
    const recipient = newAddress();
    const settler = chain.contracts.destinationSettler;
    const order: OrderData = {
      depositor: newAddress(),
      refundRecipient: chain.accounts.user.address,
      inputToken: token,
      inputAmount: AMOUNT,
      destChainId: BigInt(chain.chainId),
      destSettler: settler,
      outputToken: token,
      outputAmount: AMOUNT,
      recipient,
      fillDeadline: (await chain.now()) + WINDOW_SECONDS,
      nonce: randomSalt(),
    };
    const fillData = encodeFill(order, BigInt(chain.chainId), chain.contracts.originSettler, solver);
    await chain.mint(token, solver, 2n * AMOUNT);
    await chain.send('solver', {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [settler, 2n * AMOUNT] }),
    });

    await armToken(settler, fillData, true);
    const args = await expectRevertOnChain(
      chain,
      'solver',
      { to: settler, data: fillData },
      'ReentrancyGuardReentrantCall',
    );
    expect(args).toEqual([]);
    expect(await chain.balanceOf(token, recipient)).toBe(0n);

    await armToken(settler, fillData, false);
    await chain.send('solver', { to: settler, data: fillData });
    expect(await chain.balanceOf(token, recipient)).toBe(AMOUNT);
    expect(await chain.balanceOf(token, solver)).toBe(AMOUNT);
    const lastOk = await chain.publicClient.readContract({
      address: token,
      abi: reentrantTokenAbi,
      functionName: 'lastReentryOk',
    });
    expect(lastOk).toBe(false);
    const orderId = computeOrderId(order, BigInt(chain.chainId), chain.contracts.originSettler);
    const again = await expectRevertOnChain(
      chain,
      'solver',
      { to: settler, data: fillData },
      'AlreadyFilled',
    );
    expect(again).toEqual([orderId, solver]);
    expect(await chain.balanceOf(token, recipient)).toBe(AMOUNT);
    const status = await chain.publicClient.readContract({
      address: settler,
      abi: destinationSettlerAbi,
      functionName: 'fillStatus',
      args: [orderId],
    });
    expect(status).toBe(FillStatus.Filled);
  });

  /** A destination intent that deposits its USDC into `vault` for the user (approve + deposit, both filled). */
  async function vaultIntent(vault: Address): Promise<Intent> {
    const usdc = chain.tokens.usdc;
    const user = chain.accounts.user.address;
    const ownBalance = (offset: number) => ({ kind: FillKind.OwnBalance, token: usdc, offset }) as const;
    return {
      mode: IntentMode.Destination,
      chainId: BigInt(chain.chainId),
      owner: user,
      refundRecipient: user,
      executor: ZERO,
      deadline: (await chain.now()) + WINDOW_SECONDS,
      salt: randomSalt(),
      depositToken: usdc,
      depositAmount: AMOUNT,
      minGas: DEST_MIN_GAS,
      calls: [
        {
          target: usdc,
          value: 0n,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [vault, 0n] }),
          fills: [ownBalance(ERC20_AMOUNT_OFFSET)],
        },
        {
          target: vault,
          value: 0n,
          data: encodeFunctionData({ abi: maliciousVaultAbi, functionName: 'deposit', args: [0n, user] }),
          fills: [ownBalance(VAULT_ASSETS_OFFSET)],
        },
      ],
      sweepTokens: [],
    };
  }

  const vaultHooks: [
    string,
    (i: Intent, account: Address) => Hex,
    (account: Address, vault: Address) => unknown,
  ][] = [
    ['execute', (i) => encodeExecute(i), () => GUARD_ERROR],
    ['refund', (i) => encodeRefund(i, [chain.tokens.usdc], false), () => GUARD_ERROR],
    [
      'runCallsAsSelf',
      (i) => encodeFunctionData({ abi: intentAccountAbi, functionName: 'runCallsAsSelf', args: [i.calls] }),
      (account, vault) => ({ errorName: 'UnauthorizedCaller', args: [account, vault] }),
    ],
  ];

  it.each(vaultHooks)(
    'test_executeDestination_refundsTheOwner_whenTheVaultReenters %s',
    async (_, hookData, expectedInner) => {
      const vault = getAddress(await chain.deploy('MaliciousVault', [chain.tokens.usdc]));
      const intent = await vaultIntent(vault);
      const { address: account } = accountAddress(chain, intent);
      const usdc = chain.tokens.usdc;
      const user = chain.accounts.user.address;
      await chain.send('deployer', {
        to: vault,
        data: encodeFunctionData({
          abi: maliciousVaultAbi,
          functionName: 'setHook',
          args: [account, hookData(intent, account)],
        }),
      });
      // The solver's fill, as far as the account can tell: USDC arrives at address(D).
      await chain.mint(usdc, account, AMOUNT);
      const userBefore = await chain.balanceOf(usdc, user);

      const receipt = await chain.send('stranger', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndExecute(intent),
        gas: HOOKED_TX_GAS,
      });
      const failed = parseEventLogs({
        abi: intentAccountAbi,
        eventName: 'DestinationFailed',
        logs: receipt.logs,
      });
      expect(failed).toHaveLength(1);
      const outer = decodeReason(failed[0]!.args.reason);
      expect(outer.errorName).toBe('CallFailed');
      expect(outer.args[0]).toBe(1n);
      expect(decodeReason(outer.args[1] as Hex)).toEqual(expectedInner(account, vault));

      expect(await chain.balanceOf(usdc, user)).toBe(userBefore + AMOUNT);
      expect(await chain.balanceOf(usdc, vault)).toBe(0n);
      expect(await chain.balanceOf(usdc, account)).toBe(0n);
      expect(await allowanceOf(chain, usdc, account, vault)).toBe(0n);
      expect(await accountStateOf(chain, account)).toBe(AccountState.Executed);
    },
  );
});
