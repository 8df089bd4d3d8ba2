/**
 * A gasless intent as a wallet drives it through the official client: quote and commit USDC from one chain
 * to another, sign the DepositSignature the client sends (the Trails intent and a permit or an EIP-3009
 * authorization), and wait for the receipt to be done.
 */
import type { DepositSignature, FeeOption, GasFeeOptions, Intent, TrailsApi } from '@0xtrails/api';
import { type Address, type Hex, zeroAddress } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAddress } from 'viem/accounts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { signPermit, signReceiveAuthorization, signTrailsIntent } from './support.ts';

/** The signed deadline the official client uses: one hour ahead (seconds). */
export const SIGNATURE_LIFETIME_S = 3_600;

export const chainNow = async (chain: TestDevnetChain) =>
  Number((await chain.publicClient.getBlock({ blockTag: 'latest' })).timestamp);

/** The gas fee option paid in a token (not the native one). */
export const tokenOption = (g: GasFeeOptions): FeeOption =>
  g.feeOptions.find((o) => o.tokenAddress !== zeroAddress)!;

/** USDC on `from` → USDC on `to` for `wallet`, quoted and committed, paid to a fresh recipient. */
export async function quoteAndCommitUsdc(
  api: TrailsApi,
  route: { from: TestDevnetChain; to: TestDevnetChain },
  wallet: Address,
  amount: bigint,
) {
  const recipient = privateKeyToAddress(generatePrivateKey());
  const { intent, gasFeeOptions } = await api.quoteIntent({
    ownerAddress: wallet,
    originChainId: route.from.entry.chainId,
    originTokenAddress: route.from.entry.tokens.USDC!,
    destinationChainId: route.to.entry.chainId,
    destinationTokenAddress: route.to.entry.tokens.USDC!,
    destinationToAddress: recipient,
    originTokenAmount: amount,
    destinationTokenAmount: 0n,
    tradeType: 'EXACT_INPUT' as never,
  });
  await api.commitIntent({ intent });
  return { intent, gasFeeOptions, recipient };
}

export interface DepositSignatureOptions {
  deadline?: number;
  chainId?: number;
  option?: FeeOption;
  auth?: 'permit' | 'eip3009';
  user?: Address;
}

/** The DepositSignature the official client sends for an intent whose deposit is on `origin`. */
export async function signDeposit(
  origin: TestDevnetChain,
  wallet: PrivateKeyAccount,
  intent: Intent,
  g: GasFeeOptions,
  o: DepositSignatureOptions = {},
): Promise<DepositSignature & { selectedGasFeeOption: FeeOption }> {
  const deadline = o.deadline ?? (await chainNow(origin)) + SIGNATURE_LIFETIME_S;
  const option = o.option ?? tokenOption(g);
  const amount = intent.depositTransaction.amount;
  const intentSignature = await signTrailsIntent(wallet, {
    ...(o.user && { user: o.user }),
    chainId: o.chainId ?? intent.originChainId,
    entrypoint: intent.trailsContracts.trailsIntentEntrypointAddress as Address,
    token: intent.depositTransaction.tokenAddress as Address,
    amount,
    intentAddress: intent.originIntentAddress as Address,
    deadline,
    nonce: 0,
    feeAmount: option.amount,
    feeCollector: g.feeCollectorAddress as Address,
  });
  const account = intent.originIntentAddress as Address;
  const permitSignature =
    o.auth === 'eip3009'
      ? await signReceiveAuthorization(origin, wallet, {
          to: account,
          value: amount,
          validBefore: deadline,
          intentId: intent.intentId as Hex,
        })
      : await signPermit(origin, wallet, { spender: account, value: amount, deadline });
  return {
    intentSignature,
    permitSignature,
    permitDeadline: deadline,
    permitAmount: amount,
    selectedGasFeeOption: option,
    userNonce: 0,
    deadline,
  };
}

/** WaitIntentReceipt until the receipt is done; answers it. */
export async function waitReceiptDone(api: TrailsApi, intentId: string) {
  let lastReceiptStates: string[] = [];
  for (;;) {
    const r = await api.waitIntentReceipt({ intentId, lastReceiptStates: lastReceiptStates as never });
    if (r.done) return r.intentReceipt;
    lastReceiptStates = r.receiptStates as string[];
  }
}
