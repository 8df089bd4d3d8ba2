/**
 * Threats #19 and #20 of contracts-brief §3 on one anvil chain: gasless-deposit signatures in the hands of
 * an attacker. The permit's spender and the EIP-3009 receiver are the intent account itself, so a front-run
 * signature still funds that account, and no signature funds anything else.
 */
import { type Address, encodeFunctionData, type Hex, parseSignature } from 'viem';
import { describe, expect, it } from 'vitest';
import { devUsdcAbi } from '../../../src/contracts/abis.generated.ts';
import {
  depositAuthorizationNonce,
  encodePermitAuthData,
  encodeReceiveAuthData,
  receiveWithAuthorizationTypedData,
} from '../../../src/contracts/auth-data.ts';
import { encodeDeployIfNeededAndExecute } from '../../../src/contracts/calldata.ts';
import type { Intent } from '../../../src/contracts/types.ts';
import type { TestChain } from '../../harness/chain.ts';
import { signUserPermit, userAuthorization } from '../gasless-auth.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import { duePayment, newAddress } from './support/fixture.ts';
import { allowanceOf, expectRevertOnChain, USDC } from './t13-t23-support.ts';

const AMOUNT = 25n * USDC;

describe('gasless-deposit threats #19–#20', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_319], ([started]) => {
    chain = started;
  });

  const usdc = (holder: Address) => chain.balanceOf(chain.tokens.usdc, holder);

  interface PayingIntent {
    intent: Intent;
    account: Address;
    hash: Hex;
    recipient: Address;
  }

  /** An origin intent of the user (executor = relayer) that pays AMOUNT of USDC to a fresh recipient. */
  async function payingIntent(): Promise<PayingIntent> {
    const recipient = newAddress();
    return { ...(await duePayment(chain, { recipient, amount: AMOUNT })), recipient };
  }

  /** The user's EIP-2612 permit of AMOUNT for `spender` (an intent account). */
  const signPermit = (spender: Address, deadline: bigint): Promise<Hex> =>
    signUserPermit(chain, { spender, value: AMOUNT, deadline });

  /** `DevUSDC.permit(user, spender, AMOUNT, deadline, v, r, s)` calldata, as anyone could submit it. */
  function permitCalldata(spender: Address, deadline: bigint, signature: Hex): Hex {
    const { r, s, yParity } = parseSignature(signature);
    return encodeFunctionData({
      abi: devUsdcAbi,
      functionName: 'permit',
      args: [chain.accounts.user.address, spender, AMOUNT, deadline, 27 + (yParity ?? 0), r, s],
    });
  }

  const executeTx = (intent: Intent, authData: Hex) => ({
    to: chain.contracts.intentFactory,
    data: encodeDeployIfNeededAndExecute(intent, authData),
  });

  describe('#19 EIP-2612 permit front-run or reused for another intent', () => {
    it('an attacker who submits the permit first cannot spend it, and execute still pulls the deposit', async () => {
      const { intent, account, recipient } = await payingIntent();
      const { user, stranger } = chain.accounts;
      await chain.mint(chain.tokens.usdc, user.address, AMOUNT);
      const signature = await signPermit(account, intent.deadline);
      const userBefore = await usdc(user.address);

      // The attacker lifts the signature from the mempool and submits it directly.
      await chain.send('stranger', {
        to: chain.tokens.usdc,
        data: permitCalldata(account, intent.deadline, signature),
      });
      expect(await allowanceOf(chain, chain.tokens.usdc, user.address, account)).toBe(AMOUNT);
      const steal = await expectRevertOnChain(
        chain,
        'stranger',
        {
          to: chain.tokens.usdc,
          data: encodeFunctionData({
            abi: devUsdcAbi,
            functionName: 'transferFrom',
            args: [user.address, stranger.address, AMOUNT],
          }),
        },
        'ERC20InsufficientAllowance',
      );
      expect(steal).toEqual([stranger.address, 0n, AMOUNT]);

      // The relayer's execute carries the same (now used) permit: its permit call fails inside try/catch,
      // the allowance is already there, and the deposit is pulled.
      await chain.send(
        'relayer',
        executeTx(intent, encodePermitAuthData({ deadline: intent.deadline, signature })),
      );
      expect(await usdc(recipient)).toBe(AMOUNT);
      expect(await usdc(user.address)).toBe(userBefore - AMOUNT);
      expect(await usdc(stranger.address)).toBe(0n);
      expect(await allowanceOf(chain, chain.tokens.usdc, user.address, account)).toBe(0n);
    });

    it("a second intent of the same owner cannot use the first intent's permit", async () => {
      const first = await payingIntent();
      const second = await payingIntent();
      const { user } = chain.accounts;
      await chain.mint(chain.tokens.usdc, user.address, AMOUNT);
      const signature = await signPermit(first.account, first.intent.deadline);
      const permitForFirst = encodePermitAuthData({ deadline: first.intent.deadline, signature });
      const userBefore = await usdc(user.address);

      const args = await expectRevertOnChain(
        chain,
        'relayer',
        executeTx(second.intent, permitForFirst),
        'InsufficientDeposit',
      );
      expect(args).toEqual([AMOUNT, 0n]);
      // Submitted directly with the second account as spender, the signature does not verify.
      await expectRevertOnChain(
        chain,
        'stranger',
        { to: chain.tokens.usdc, data: permitCalldata(second.account, first.intent.deadline, signature) },
        'ERC2612InvalidSigner',
      );
      expect(await usdc(user.address)).toBe(userBefore);
      expect(await usdc(second.recipient)).toBe(0n);
      expect(await allowanceOf(chain, chain.tokens.usdc, user.address, second.account)).toBe(0n);

      // The permit still funds the intent it was signed for.
      await chain.send('relayer', executeTx(first.intent, permitForFirst));
      expect(await usdc(first.recipient)).toBe(AMOUNT);
      expect(await usdc(user.address)).toBe(userBefore - AMOUNT);
    });
  });

  describe('#20 EIP-3009 receiveWithAuthorization redirect', () => {
    it("an attacker's call with the signature reverts; only the intent account can receive it", async () => {
      const { intent, account, hash, recipient } = await payingIntent();
      const { user, stranger } = chain.accounts;
      await chain.mint(chain.tokens.usdc, user.address, AMOUNT);
      const nonce = depositAuthorizationNonce(hash);
      const validBefore = intent.deadline;
      const signature = await chain.wallets.user.signTypedData(
        receiveWithAuthorizationTypedData({
          ...userAuthorization(chain, account, AMOUNT),
          validAfter: 0n,
          validBefore,
          nonce,
        }),
      );
      const { r, s, yParity } = parseSignature(signature);
      const v = 27 + (yParity ?? 0);
      const authorization = (fn: 'receiveWithAuthorization' | 'transferWithAuthorization', to: Address) => ({
        to: chain.tokens.usdc,
        data: encodeFunctionData({
          abi: devUsdcAbi,
          functionName: fn,
          args: [user.address, to, AMOUNT, 0n, validBefore, nonce, v, r, s],
        }),
      });
      const userBefore = await usdc(user.address);

      // As signed (to = the account), the token accepts it only from the account itself.
      const asSigned = await expectRevertOnChain(
        chain,
        'stranger',
        authorization('receiveWithAuthorization', account),
        'ERC20InvalidReceiver',
      );
      expect(asSigned).toEqual([account]);
      // Redirected to the attacker, the signature no longer matches.
      await expectRevertOnChain(
        chain,
        'stranger',
        authorization('receiveWithAuthorization', stranger.address),
        'ERC3009InvalidSignature',
      );
      // Replayed as a transferWithAuthorization (another EIP-712 type), it does not verify either.
      await expectRevertOnChain(
        chain,
        'stranger',
        authorization('transferWithAuthorization', stranger.address),
        'ERC3009InvalidSignature',
      );
      expect(await usdc(user.address)).toBe(userBefore);
      expect(await usdc(stranger.address)).toBe(0n);

      await chain.send(
        'relayer',
        executeTx(intent, encodeReceiveAuthData({ validAfter: 0n, validBefore, nonce, signature })),
      );
      expect(await usdc(recipient)).toBe(AMOUNT);
      expect(await usdc(user.address)).toBe(userBefore - AMOUNT);
      expect(await usdc(stranger.address)).toBe(0n);
    });
  });
});
