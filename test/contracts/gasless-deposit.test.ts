import { describe, expect, it } from 'vitest';
import {
  depositAuthorizationNonce,
  encodePermitAuthData,
  encodeReceiveAuthData,
  receiveWithAuthorizationTypedData,
} from '../../src/contracts/auth-data.ts';
import { encodeDeployIfNeededAndExecute } from '../../src/contracts/calldata.ts';
import type { TestChain } from '../harness/chain.ts';
import { signUserPermit, userAuthorization } from './gasless-auth.ts';
import { duePayment, newAddress } from './threats/support/fixture.ts';
import { useTestChains } from './use-test-chains.ts';

const AMOUNT = 25_000_000n;

describe('gasless deposits through authData', () => {
  let chain: TestChain;
  useTestChains([7_770_501], ([started]) => {
    chain = started;
  });

  it('pulls the deposit with an EIP-2612 permit whose spender is the intent account', async () => {
    const recipient = newAddress();
    const { intent, account } = await duePayment(chain, { recipient, amount: AMOUNT });
    const user = chain.accounts.user.address;
    await chain.mint(chain.tokens.usdc, user, AMOUNT);
    const signature = await signUserPermit(chain, {
      spender: account,
      value: AMOUNT,
      deadline: intent.deadline,
    });
    const before = await chain.balanceOf(chain.tokens.usdc, user);
    await chain.send('relayer', {
      to: chain.contracts.intentFactory,
      data: encodeDeployIfNeededAndExecute(
        intent,
        encodePermitAuthData({ deadline: intent.deadline, signature }),
      ),
    });
    expect(await chain.balanceOf(chain.tokens.usdc, recipient)).toBe(AMOUNT);
    expect(await chain.balanceOf(chain.tokens.usdc, user)).toBe(before - AMOUNT);
  });

  it('pulls the deposit with EIP-3009 receiveWithAuthorization to the intent account', async () => {
    const recipient = newAddress();
    const { intent, account, hash } = await duePayment(chain, { recipient, amount: AMOUNT });
    const user = chain.accounts.user.address;
    await chain.mint(chain.tokens.usdc, user, AMOUNT);
    const nonce = depositAuthorizationNonce(hash);
    const signature = await chain.wallets.user.signTypedData(
      receiveWithAuthorizationTypedData({
        ...userAuthorization(chain, account, AMOUNT),
        validAfter: 0n,
        validBefore: intent.deadline,
        nonce,
      }),
    );
    const before = await chain.balanceOf(chain.tokens.usdc, user);
    const authData = encodeReceiveAuthData({
      validAfter: 0n,
      validBefore: intent.deadline,
      nonce,
      signature,
    });
    await chain.send('relayer', {
      to: chain.contracts.intentFactory,
      data: encodeDeployIfNeededAndExecute(intent, authData),
    });
    expect(await chain.balanceOf(chain.tokens.usdc, recipient)).toBe(AMOUNT);
    expect(await chain.balanceOf(chain.tokens.usdc, user)).toBe(before - AMOUNT);
  });
});
