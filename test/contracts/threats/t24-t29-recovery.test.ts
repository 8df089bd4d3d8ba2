/**
 * Threats #24–#29: the owner-signed recovery (IntentAccount.recover, IntentFactory.deployIfNeededAndRecover).
 * Anyone may send a recovery, so everything rests on what the owner signed: only the committed owner's
 * signature counts (#24 forged, #25 another owner's), each signature recovers once, on one account and one
 * chain, before its deadline (#26), the deposit token stays while the intent can still execute (#27), the
 * sender's fee is capped by the signature and by what is recovered (#28), and nobody holds a key over it (#29).
 */
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  parseEventLogs,
  parseUnits,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { intentAccountAbi, intentFactoryAbi } from '../../../src/contracts/abis.generated.ts';
import {
  encodeDeploy,
  encodeDeployIfNeededAndRecover,
  encodeExecute,
  encodeRecover,
} from '../../../src/contracts/calldata.ts';
import { recoveryDigest, recoveryTypedData } from '../../../src/contracts/recovery-typed-data.ts';
import { AccountState, type Intent, type Recovery } from '../../../src/contracts/types.ts';
import type { Role, TestChain } from '../../harness/chain.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  accountStateOf,
  deposit,
  duePayment,
  executeViaFactory,
  expectRevertOnChain,
  newAddress,
  USDC,
  ZERO,
} from './support/fixture.ts';

const AMOUNT = 100n * USDC;
const STRAY_DAI = parseUnits('40', 18);
/** Validity of the test signatures: long enough that no test reaches it without warping. */
const SIGNATURE_SECONDS = 3_600n;

describe('recovery threats #24–#29', () => {
  let chain: TestChain;
  let other: TestChain;
  useIsolatedTestChains([7_771_324, 7_771_325], ([started, second]) => {
    chain = started;
    other = second;
  });

  interface Stranded {
    intent: Intent;
    account: Address;
  }

  /** A USDC payment intent of the user whose account (not deployed) holds 40 DAI sent by mistake. */
  async function strandedDai(on: TestChain = chain): Promise<Stranded> {
    const { intent, account } = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
    await deposit(on, on.tokens.dai, account, STRAY_DAI);
    return { intent, account };
  }

  let nonces = 0n;
  /** A recovery of `token` to a fresh recipient, valid for SIGNATURE_SECONDS, with a nonce never used here. */
  async function recoveryOf(token: Address, overrides: Partial<Recovery> = {}): Promise<Recovery> {
    nonces += 1n;
    return {
      token,
      recipient: newAddress(),
      cancelIntent: false,
      maxFee: 0n,
      nonce: BigInt(toHex(`nonce-${nonces}`, { size: 32 })),
      deadline: (await chain.now()) + SIGNATURE_SECONDS,
      ...overrides,
    };
  }

  /** `signer` signs `recovery` for `account` on `on` (the owner is the `user` role). */
  function sign(on: TestChain, account: Address, recovery: Recovery, signer: Role = 'user'): Promise<Hex> {
    return on.wallets[signer].signTypedData(
      recoveryTypedData({ chainId: BigInt(on.chainId), account, recovery }),
    );
  }

  const recoverTx = (on: TestChain, intent: Intent, recovery: Recovery, signature: Hex, fee = 0n) => ({
    to: on.contracts.intentFactory,
    data: encodeDeployIfNeededAndRecover(intent, recovery, fee, signature),
  });

  const dai = (holder: Address, on: TestChain = chain) => on.balanceOf(on.tokens.dai, holder);
  const usdc = (holder: Address, on: TestChain = chain) => on.balanceOf(on.tokens.usdc, holder);

  it('the typed data the server hands out is the digest the account checks', async () => {
    const { intent, account } = await strandedDai();
    await chain.send('stranger', { to: chain.contracts.intentFactory, data: encodeDeploy(intent) });
    for (const cancelIntent of [false, true]) {
      const recovery = await recoveryOf(chain.tokens.dai, { cancelIntent, maxFee: 12_345n });
      const onChain = await chain.publicClient.readContract({
        address: account,
        abi: intentAccountAbi,
        functionName: 'recoveryDigest',
        args: [recovery],
      });
      expect(onChain).toBe(recoveryDigest({ chainId: BigInt(chain.chainId), account, recovery }));
    }
  });

  describe('#24 a forged signature', () => {
    it("a stranger's signature over the owner's recovery moves nothing", async () => {
      const { intent, account } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai);
      const forged = await sign(chain, account, recovery, 'stranger');
      const args = await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, forged),
        'InvalidRecoverySignature',
      );
      expect(args).toEqual([chain.accounts.user.address]);
      expect(await dai(account)).toBe(STRAY_DAI);
      expect(await dai(recovery.recipient)).toBe(0n);
    });

    it("the owner's signature with the recipient, the fee cap or the cancel flag changed by the sender moves nothing", async () => {
      const { intent, account } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai);
      const signature = await sign(chain, account, recovery);
      const thief = newAddress();
      for (const changed of [
        { ...recovery, recipient: thief },
        { ...recovery, maxFee: STRAY_DAI },
        { ...recovery, cancelIntent: true },
        { ...recovery, deadline: recovery.deadline + 1n },
      ]) {
        await expectRevertOnChain(
          chain,
          'stranger',
          recoverTx(chain, intent, changed, signature, changed.maxFee),
          'InvalidRecoverySignature',
        );
      }
      expect(await dai(thief)).toBe(0n);
      expect(await dai(chain.accounts.stranger.address)).toBe(0n);
      expect(await dai(account)).toBe(STRAY_DAI);
    });

    it('bytes that are no signature at all are refused, not decoded into some signer', async () => {
      const { intent } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai);
      for (const junk of ['0x', `0x${'11'.repeat(65)}`, `0x${'00'.repeat(64)}`] as Hex[]) {
        await expectRevertOnChain(
          chain,
          'stranger',
          recoverTx(chain, intent, recovery, junk),
          'InvalidRecoverySignature',
        );
      }
    });
  });

  describe("#25 another owner's signature", () => {
    it('the owner of another intent cannot recover from this one', async () => {
      const { intent, account } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai);
      // The stranger owns an intent too; their signature is valid for theirs, never for the user's account.
      const signature = await sign(chain, account, recovery, 'stranger');
      await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, signature),
        'InvalidRecoverySignature',
      );
      expect(await dai(account)).toBe(STRAY_DAI);
    });

    it("the same owner's signature for one of their intents does not move another's funds", async () => {
      const first = await strandedDai();
      const second = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai);
      const forFirst = await sign(chain, first.account, recovery);
      await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, second.intent, recovery, forFirst),
        'InvalidRecoverySignature',
      );
      expect(await dai(second.account)).toBe(STRAY_DAI);
      await chain.send('stranger', recoverTx(chain, first.intent, recovery, forFirst));
      expect(await dai(recovery.recipient)).toBe(STRAY_DAI);
      expect(await dai(second.account)).toBe(STRAY_DAI);
    });

    it('an intent whose owner is a fresh key: only that key signs for it', async () => {
      const key = privateKeyToAccount(generatePrivateKey());
      const { intent: base } = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
      const intent: Intent = { ...base, owner: key.address, refundRecipient: key.address };
      const account = await predictedAccount(intent);
      await deposit(chain, chain.tokens.dai, account, STRAY_DAI);
      const recovery = await recoveryOf(chain.tokens.dai);
      const typed = recoveryTypedData({ chainId: BigInt(chain.chainId), account, recovery });
      const byUser = await sign(chain, account, recovery);
      await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, byUser),
        'InvalidRecoverySignature',
      );
      await chain.send('stranger', recoverTx(chain, intent, recovery, await key.signTypedData(typed)));
      expect(await dai(recovery.recipient)).toBe(STRAY_DAI);
    });
  });

  describe('#26 a replayed signature', () => {
    it('recovers once: sent again after a new deposit, it is refused', async () => {
      const { intent, account } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai);
      const signature = await sign(chain, account, recovery);
      await chain.send('stranger', recoverTx(chain, intent, recovery, signature));
      expect(await dai(recovery.recipient)).toBe(STRAY_DAI);
      expect(await readNonceUsed(chain, account, recovery.nonce)).toBe(true);

      await deposit(chain, chain.tokens.dai, account, STRAY_DAI);
      const args = await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, signature),
        'RecoveryNonceUsed',
      );
      expect(args).toEqual([recovery.nonce]);
      expect(await dai(account)).toBe(STRAY_DAI);
    });

    it('a signature for one chain moves nothing on another, where the same account address also holds funds', async () => {
      const { intent, account } = await strandedDai();
      await deposit(other, other.tokens.dai, account, STRAY_DAI);
      const recovery = await recoveryOf(chain.tokens.dai);
      const signature = await sign(chain, account, recovery);
      // other's DAI sits at the same address (the same factory); the token address is the same too.
      expect(other.tokens.dai).toBe(chain.tokens.dai);
      await expectRevertOnChain(
        other,
        'stranger',
        recoverTx(other, intent, recovery, signature),
        'InvalidRecoverySignature',
      );
      expect(await dai(account, other)).toBe(STRAY_DAI);
      await chain.send('stranger', recoverTx(chain, intent, recovery, signature));
      expect(await dai(recovery.recipient)).toBe(STRAY_DAI);
    });

    it('an expired signature is refused at its deadline', async () => {
      const { intent, account } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai, { deadline: (await chain.now()) + 60n });
      const signature = await sign(chain, account, recovery);
      await chain.increaseTime(recovery.deadline - (await chain.now()));
      const args = await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, signature),
        'RecoveryExpired',
      );
      expect(args[0]).toBe(recovery.deadline);
      expect(await dai(account)).toBe(STRAY_DAI);
    });

    it('a recovery that cannot be sent reverts whole: its nonce stays unused and nothing moves', async () => {
      const { intent, account } = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
      await chain.send('stranger', { to: account, data: '0x', value: 10n ** 18n });
      await chain.send('stranger', { to: chain.contracts.intentFactory, data: encodeDeploy(intent) });
      const rejecting = await chain.deploy('RevertingTarget');
      const recovery = await recoveryOf(ZERO, { recipient: rejecting });
      const signature = await sign(chain, account, recovery);
      const args = await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, signature),
        'RecoveryTransferFailed',
      );
      expect(args).toEqual([ZERO, getAddress(rejecting)]);
      expect(await chain.balanceOf(ZERO, account)).toBe(10n ** 18n);
      expect(await readNonceUsed(chain, account, recovery.nonce)).toBe(false);
    });
  });

  describe('#27 the committed deposit while the intent can still execute', () => {
    it('is refused even with the owner signature; another token at the address is not', async () => {
      const { intent, account } = await strandedDai();
      await deposit(chain, chain.tokens.usdc, account, AMOUNT);
      const recovery = await recoveryOf(chain.tokens.usdc);
      const signature = await sign(chain, account, recovery);
      const args = await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, signature),
        'DepositTokenLocked',
      );
      expect(args).toEqual([chain.tokens.usdc]);
      expect(await usdc(account)).toBe(AMOUNT);

      // The stray DAI leaves; the intent is untouched and still runs with its deposit.
      const daiRecovery = await recoveryOf(chain.tokens.dai);
      await chain.send(
        'stranger',
        recoverTx(chain, intent, daiRecovery, await sign(chain, account, daiRecovery)),
      );
      expect(await dai(daiRecovery.recipient)).toBe(STRAY_DAI);
      expect(await accountStateOf(chain, account)).toBe(AccountState.None);
      await chain.send('relayer', executeViaFactory(chain, intent));
      expect(await accountStateOf(chain, account)).toBe(AccountState.Executed);
      expect(await usdc(account)).toBe(0n);
    });

    it('a native intent keeps its native deposit the same way', async () => {
      const { intent, account } = await duePayment(chain, {
        recipient: newAddress(),
        amount: 10n ** 17n,
        token: ZERO,
      });
      await chain.send('user', { to: account, data: '0x', value: 10n ** 17n });
      const recovery = await recoveryOf(ZERO);
      await expectRevertOnChain(
        chain,
        'stranger',
        recoverTx(chain, intent, recovery, await sign(chain, account, recovery)),
        'DepositTokenLocked',
      );
      expect(await chain.balanceOf(ZERO, account)).toBe(10n ** 17n);
    });

    it('is recoverable once the intent cannot execute: after its deadline, after it ran, or on another chain', async () => {
      const expired = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
      await deposit(chain, chain.tokens.usdc, expired.account, AMOUNT - 1n);
      const ran = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
      await deposit(chain, chain.tokens.usdc, ran.account, AMOUNT);
      await chain.send('relayer', executeViaFactory(chain, ran.intent));
      await deposit(chain, chain.tokens.usdc, ran.account, 7n * USDC);
      await deposit(other, other.tokens.usdc, expired.account, 3n * USDC);

      // On the wrong chain the intent can never execute: its deposit token is recoverable at once.
      const wrongChain = await recoveryOf(other.tokens.usdc);
      await other.send(
        'stranger',
        recoverTx(other, expired.intent, wrongChain, await sign(other, expired.account, wrongChain)),
      );
      expect(await usdc(wrongChain.recipient, other)).toBe(3n * USDC);

      const second = await recoveryOf(chain.tokens.usdc);
      await chain.send(
        'stranger',
        recoverTx(chain, ran.intent, second, await sign(chain, ran.account, second)),
      );
      expect(await usdc(second.recipient)).toBe(7n * USDC);

      await chain.increaseTime(expired.intent.deadline - (await chain.now()));
      const late = await recoveryOf(chain.tokens.usdc);
      await chain.send(
        'stranger',
        recoverTx(chain, expired.intent, late, await sign(chain, expired.account, late)),
      );
      expect(await usdc(late.recipient)).toBe(AMOUNT - 1n);
    });

    it('the owner can sign the cancellation with it: the intent is cancelled first and can never run', async () => {
      const { intent, account } = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
      await deposit(chain, chain.tokens.usdc, account, AMOUNT);
      const recovery = await recoveryOf(chain.tokens.usdc, { cancelIntent: true });
      const receipt = await chain.send(
        'stranger',
        recoverTx(chain, intent, recovery, await sign(chain, account, recovery)),
      );
      expect(await usdc(recovery.recipient)).toBe(AMOUNT);
      expect(await accountStateOf(chain, account)).toBe(AccountState.Cancelled);
      const events = parseEventLogs({ abi: intentAccountAbi, logs: receipt.logs });
      expect(events.map((e) => e.eventName)).toEqual(['Cancelled', 'Recovered']);

      await deposit(chain, chain.tokens.usdc, account, AMOUNT);
      const args = await expectRevertOnChain(
        chain,
        'relayer',
        { to: account, data: encodeExecute(intent) },
        'InvalidState',
      );
      expect(args).toEqual([AccountState.None, AccountState.Cancelled]);
    });
  });

  describe("#28 the sender's fee", () => {
    it('the sender keeps the fee it asks for, up to the signed cap; the recipient gets the rest', async () => {
      const { intent, account } = await strandedDai();
      const maxFee = parseUnits('2', 18);
      const recovery = await recoveryOf(chain.tokens.dai, { maxFee });
      const signature = await sign(chain, account, recovery);
      const relayer = chain.accounts.relayer.address;
      const args = await expectRevertOnChain(
        chain,
        'relayer',
        recoverTx(chain, intent, recovery, signature, maxFee + 1n),
        'RecoveryFeeTooHigh',
      );
      expect(args).toEqual([maxFee + 1n, maxFee, STRAY_DAI]);

      const receipt = await chain.send('relayer', recoverTx(chain, intent, recovery, signature, maxFee));
      expect(await dai(relayer)).toBe(maxFee);
      expect(await dai(recovery.recipient)).toBe(STRAY_DAI - maxFee);
      expect(await dai(account)).toBe(0n);
      const [recovered] = parseEventLogs({
        abi: intentAccountAbi,
        logs: receipt.logs,
        eventName: 'Recovered',
      });
      expect(recovered?.args).toEqual({
        token: chain.tokens.dai,
        recipient: recovery.recipient,
        amount: STRAY_DAI - maxFee,
        feeTo: relayer,
        fee: maxFee,
        nonce: recovery.nonce,
      });
    });

    it('never more than is recovered, whatever the owner signed', async () => {
      const { intent, account } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai, { maxFee: STRAY_DAI * 10n });
      const signature = await sign(chain, account, recovery);
      const args = await expectRevertOnChain(
        chain,
        'relayer',
        recoverTx(chain, intent, recovery, signature, STRAY_DAI + 1n),
        'RecoveryFeeTooHigh',
      );
      expect(args).toEqual([STRAY_DAI + 1n, STRAY_DAI * 10n, STRAY_DAI]);
      expect(await dai(account)).toBe(STRAY_DAI);
    });

    it('a recovery of nothing is refused, so nobody pays gas for it', async () => {
      const { intent, account } = await duePayment(chain, { recipient: newAddress(), amount: AMOUNT });
      const recovery = await recoveryOf(chain.tokens.dai);
      const args = await expectRevertOnChain(
        chain,
        'relayer',
        recoverTx(chain, intent, recovery, await sign(chain, account, recovery)),
        'NothingToRecover',
      );
      expect(args).toEqual([chain.tokens.dai]);
    });
  });

  describe('#29 no admin and no side entrance', () => {
    it('recoverFor answers only the factory, so nobody can claim to be another sender', async () => {
      const { intent, account } = await strandedDai();
      await chain.send('stranger', { to: chain.contracts.intentFactory, data: encodeDeploy(intent) });
      const recovery = await recoveryOf(chain.tokens.dai, { maxFee: STRAY_DAI });
      const signature = await sign(chain, account, recovery);
      const args = await expectRevertOnChain(
        chain,
        'stranger',
        {
          to: account,
          data: encodeRecoverFor(chain.accounts.stranger.address, intent, recovery, STRAY_DAI, signature),
        },
        'UnauthorizedCaller',
      );
      expect(args).toEqual([chain.contracts.intentFactory, chain.accounts.stranger.address]);
      // Sent to the account directly the recovery works as through the factory.
      await chain.send('user', { to: account, data: encodeRecover(intent, recovery, 0n, signature) });
      expect(await dai(recovery.recipient)).toBe(STRAY_DAI);
    });

    it('a recovery needs a recipient', async () => {
      const { intent, account } = await strandedDai();
      const recovery = await recoveryOf(chain.tokens.dai, { recipient: ZERO });
      await expectRevertOnChain(
        chain,
        'user',
        recoverTx(chain, intent, recovery, await sign(chain, account, recovery)),
        'InvalidRecoveryRecipient',
      );
    });

    it('on a chain where the account was never deployed, the factory deploys it and recovers in one transaction', async () => {
      const { intent, account } = await strandedDai(other);
      expect(await other.publicClient.getCode({ address: account })).toBeUndefined();
      const recovery = await recoveryOf(other.tokens.dai);
      await other.send('stranger', recoverTx(other, intent, recovery, await sign(other, account, recovery)));
      expect(await dai(recovery.recipient, other)).toBe(STRAY_DAI);
      expect(await other.publicClient.getCode({ address: account })).toBeDefined();
      expect(await dai(chain.accounts.stranger.address, other)).toBe(0n);
    });
  });

  async function predictedAccount(intent: Intent): Promise<Address> {
    const hash = await chain.publicClient.readContract({
      address: chain.contracts.intentFactory,
      abi: intentFactoryAbi,
      functionName: 'hashIntent',
      args: [intent],
    });
    return chain.publicClient.readContract({
      address: chain.contracts.intentFactory,
      abi: intentFactoryAbi,
      functionName: 'predict',
      args: [hash],
    });
  }
});

function readNonceUsed(chain: TestChain, account: Address, nonce: bigint): Promise<boolean> {
  return chain.publicClient.readContract({
    address: account,
    abi: intentAccountAbi,
    functionName: 'recoveryNonceUsed',
    args: [nonce],
  });
}

function encodeRecoverFor(
  caller: Address,
  intent: Intent,
  recovery: Recovery,
  fee: bigint,
  signature: Hex,
): Hex {
  return encodeFunctionData({
    abi: intentAccountAbi,
    functionName: 'recoverFor',
    args: [caller, intent, recovery, fee, signature],
  });
}
