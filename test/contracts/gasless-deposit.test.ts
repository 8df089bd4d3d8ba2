import { type Address, keccak256, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devUsdcAbi } from '../../src/contracts/abis.generated.ts';
import {
  depositAuthorizationNonce,
  encodePermitAuthData,
  encodeReceiveAuthData,
  permitTypedData,
  receiveWithAuthorizationTypedData,
} from '../../src/contracts/auth-data.ts';
import { encodeDeployIfNeededAndExecute } from '../../src/contracts/calldata.ts';
import { type Intent, IntentMode } from '../../src/contracts/types.ts';
import { startTestChain, type TestChain } from '../harness/chain.ts';
import { accountAddress, transferCall } from './route.ts';

const AMOUNT = 25_000_000n;
const TOKEN_NAME = 'USD Coin (devnet)';

describe('gasless deposits through authData', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await startTestChain({ chainId: 7_770_501 });
  });
  afterAll(async () => {
    await chain?.stop();
  });

  async function intentPayingTo(recipient: Address): Promise<Intent> {
    return {
      mode: IntentMode.Origin,
      chainId: BigInt(chain.chainId),
      owner: chain.accounts.user.address,
      refundRecipient: chain.accounts.user.address,
      executor: chain.accounts.relayer.address,
      deadline: (await chain.now()) + 3_600n,
      salt: keccak256(toHex(`gasless-${recipient}`)),
      depositToken: chain.tokens.usdc,
      depositAmount: AMOUNT,
      minGas: 0n,
      calls: [transferCall(chain.tokens.usdc, recipient, AMOUNT)],
      sweepTokens: [],
    };
  }

  it('pulls the deposit with an EIP-2612 permit whose spender is the intent account', async () => {
    const recipient = privateKeyToAddress(generatePrivateKey());
    const intent = await intentPayingTo(recipient);
    const { address: account } = accountAddress(chain, intent);
    const user = chain.accounts.user.address;
    await chain.mint(chain.tokens.usdc, user, AMOUNT);
    const nonce = await chain.publicClient.readContract({
      address: chain.tokens.usdc,
      abi: devUsdcAbi,
      functionName: 'nonces',
      args: [user],
    });
    const signature = await chain.wallets.user.signTypedData(
      permitTypedData({
        token: chain.tokens.usdc,
        tokenName: TOKEN_NAME,
        chainId: BigInt(chain.chainId),
        owner: user,
        account,
        value: AMOUNT,
        nonce,
        deadline: intent.deadline,
      }),
    );
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
    const recipient = privateKeyToAddress(generatePrivateKey());
    const intent = await intentPayingTo(recipient);
    const { address: account, hash } = accountAddress(chain, intent);
    const user = chain.accounts.user.address;
    await chain.mint(chain.tokens.usdc, user, AMOUNT);
    const nonce = depositAuthorizationNonce(hash);
    const signature = await chain.wallets.user.signTypedData(
      receiveWithAuthorizationTypedData({
        token: chain.tokens.usdc,
        tokenName: TOKEN_NAME,
        chainId: BigInt(chain.chainId),
        owner: user,
        account,
        value: AMOUNT,
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
