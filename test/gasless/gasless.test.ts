/**
 * Gasless deposits end to end through the official client (@0xtrails/api 0.9.4) on the devnet, with the
 * real engine: QuoteIntent → CommitIntent → ExecuteIntent{depositSignature} → WaitIntentReceipt, from a
 * fresh wallet that holds DevUSDC and no ETH. The relayer pays the gas; the fee comes out of the deposit.
 */
import {
  type DepositSignature,
  type GasFeeOptions,
  type Intent,
  InvalidArgumentError,
  type TrailsApi,
} from '@0xtrails/api';
import { type Address, erc20Abi, type Hex, isAddressEqual, parseUnits, zeroAddress } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePlan } from '../../src/intents/plan-codec.ts';
import { SETTLE_GAS } from '../../src/providers/gas.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import {
  chainNow,
  type DepositSignatureOptions,
  quoteAndCommitUsdc,
  signDeposit,
  tokenOption,
  waitReceiptDone,
} from './client-flow.ts';
import { fundedWallet, type GaslessService, signPermit, startGaslessService } from './support.ts';

const usdc = (n: string) => parseUnits(n, 6);

let svc: GaslessService;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;

beforeAll(async () => {
  svc = await startGaslessService();
  api = svc.api;
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

const balanceOf = (chain: TestDevnetChain, token: Address, holder: Address) =>
  chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });

/** Alpha USDC → beta USDC, quoted and committed for `wallet`, paid to a fresh recipient. */
const quoteAndCommit = (wallet: Address, amount = usdc('40')) =>
  quoteAndCommitUsdc(api, { from: alpha, to: beta }, wallet, amount);

/** The DepositSignature the official client sends, with an optional deposit authorization. */
const depositSignature = (
  wallet: PrivateKeyAccount,
  intent: Intent,
  g: GasFeeOptions,
  o: DepositSignatureOptions = {},
): Promise<DepositSignature> => signDeposit(alpha, wallet, intent, g, o);

/** Longest wait (ms) for an intent's settlement after it is done (a batch goes out within 250 ms). */
const SETTLE_WAIT_MS = 30_000;

/**
 * The intent's receipt once done, after its settlement too: the settlement is the relayer's last
 * transaction for the intent on alpha (a batch sent shortly after), and later tests count that key's nonces.
 */
async function waitDone(intentId: string) {
  const receipt = await waitReceiptDone(api, intentId);
  await waitSettled(intentId);
  return receipt;
}

async function waitSettled(intentId: string): Promise<void> {
  const giveUpAt = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const steps = await svc.store.steps.list(intentId);
    if (steps.some((s) => s.step === 'settle' && s.state === 'done')) return;
    if (Date.now() > giveUpAt)
      throw new Error(`intent ${intentId}: settlement not done after ${SETTLE_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each([
  ['an EIP-2612 permit', 'permit'],
  ['an EIP-3009 receiveWithAuthorization', 'eip3009'],
] as const)('a gasless deposit with %s', (_name, auth) => {
  it('arrives as quoted from a wallet without ETH; the relayer pays the gas, the collector gets the fee', async () => {
    const amount = usdc('40');
    const wallet = await fundedWallet(alpha, amount);
    const { intent, gasFeeOptions, recipient } = await quoteAndCommit(wallet.address, amount);
    const usdcAlpha = alpha.entry.tokens.USDC!;
    const collector = gasFeeOptions.feeCollectorAddress as Address;
    const collectorBefore = await balanceOf(alpha, usdcAlpha, collector);
    expect(await alpha.publicClient.getBalance({ address: wallet.address })).toBe(0n);

    const signature = await depositSignature(wallet, intent, gasFeeOptions, { auth });
    const executed = await api.executeIntent({ intentId: intent.intentId, depositSignature: signature });
    expect(executed.intentStatus).toBe('EXECUTING');
    // The client may send it again: harmless.
    await api.executeIntent({ intentId: intent.intentId, depositSignature: signature });

    const receipt = await waitDone(intent.intentId);
    expect(receipt.status).toBe('SUCCEEDED');
    const plan = decodePlan((await svc.store.intents.getForEngine(intent.intentId))!.planJson!);

    expect(await balanceOf(beta, beta.entry.tokens.USDC!, recipient)).toBeGreaterThanOrEqual(
      intent.quote.toAmountMin,
    );
    const collectorFee = plan.fees.gasFee + plan.fees.serviceFee;
    expect(await balanceOf(alpha, usdcAlpha, collector)).toBe(collectorBefore + collectorFee);
    expect(collectorFee).toBeGreaterThanOrEqual(tokenOption(gasFeeOptions).amount);
    expect(await balanceOf(alpha, usdcAlpha, wallet.address)).toBe(amount - plan.amounts.depositAmount);
    expect(await alpha.publicClient.getBalance({ address: wallet.address })).toBe(0n);

    // The deposit happened inside the origin execution, which the relayer sent and paid for.
    const deposit = receipt.depositTransaction;
    expect(deposit.status).toBe('SUCCEEDED');
    expect(deposit.txnHash).toBe(receipt.originTransaction.txnHash);
    expect(isAddressEqual(deposit.fromAddress as Address, wallet.address)).toBe(true);
    // The receipt shows the deposit's terms, never the owner's signatures (test/api/reads-fields.test.ts).
    expect(deposit.depositIntentEntry?.deadline).toBe(signature.deadline);
    expect(deposit.depositIntentEntry).not.toHaveProperty('intentSignature');
    const origin = await alpha.publicClient.getTransaction({ hash: deposit.txnHash as Hex });
    expect(isAddressEqual(origin.from, svc.net.devnet.accounts.relayer!.address)).toBe(true);
    const r = await alpha.publicClient.getTransactionReceipt({ hash: deposit.txnHash as Hex });
    // No separate gasless fee: the quoted origin gas (execute + lock + settle) also covers the pull.
    expect(r.gasUsed + SETTLE_GAS).toBeLessThanOrEqual(plan.fees.originGas.gasLimit);
  }, 60_000);
});

describe('a gasless deposit across an engine restart', () => {
  it('is journaled with its signatures on the deposit row and relayed by a new engine', async () => {
    const amount = usdc('25');
    const wallet = await fundedWallet(alpha, amount);
    const { intent, gasFeeOptions, recipient } = await quoteAndCommit(wallet.address, amount);
    const signature = await depositSignature(wallet, intent, gasFeeOptions, { auth: 'eip3009' });
    await svc.stopEngine();
    try {
      await api.executeIntent({ intentId: intent.intentId, depositSignature: signature });
      const pending = await api.getIntentReceipt({ intentId: intent.intentId });
      expect(pending.intentReceipt.status).toBe('EXECUTING');
      expect(pending.intentReceipt.depositTransaction.status).toBe('PENDING');
      const rows = await svc.store.transactions.list(intent.intentId);
      const entry = rows.find((r) => r.kind === 'deposit')?.meta?.depositIntentEntry;
      expect(entry).toMatchObject({ permitSignature: signature.permitSignature });
      expect(await balanceOf(alpha, alpha.entry.tokens.USDC!, wallet.address)).toBe(amount);
    } finally {
      await svc.startEngine();
    }
    const receipt = await waitDone(intent.intentId);
    expect(receipt.status).toBe('SUCCEEDED');
    expect(receipt.depositTransaction.txnHash).toBe(receipt.originTransaction.txnHash);
    expect(await balanceOf(beta, beta.entry.tokens.USDC!, recipient)).toBeGreaterThanOrEqual(
      intent.quote.toAmountMin,
    );
    expect(await alpha.publicClient.getBalance({ address: wallet.address })).toBe(0n);
  }, 60_000);
});

describe('a repeated gasless ExecuteIntent while the intent executes', () => {
  it('with a tampered permit is refused naming the field, the stored authorization stays, and the intent still succeeds', async () => {
    const amount = usdc('30');
    const wallet = await fundedWallet(alpha, amount);
    const { intent, gasFeeOptions, recipient } = await quoteAndCommit(wallet.address, amount);
    const { intentId } = intent;
    const signature = await depositSignature(wallet, intent, gasFeeOptions, { auth: 'permit' });
    const storedEntry = async () =>
      (await svc.store.transactions.list(intentId)).find((r) => r.kind === 'deposit')?.meta
        ?.depositIntentEntry as { permitSignature?: string; permitDeadline?: number } | undefined;
    // Held EXECUTING (no engine runs it) while the repeats arrive: the state anyone can read it in.
    await svc.stopEngine();
    try {
      expect((await api.executeIntent({ intentId, depositSignature: signature })).intentStatus).toBe(
        'EXECUTING',
      );
      const permit = signature.permitSignature!;
      // What an attacker with the project key can send: the owner's intent signature (from a receipt) with
      // a broken permit (v = 0x1f: "Invalid yParityOrV value" at every origin attempt), or another deadline.
      const tampered: DepositSignature[] = [
        { ...signature, permitSignature: `${permit.slice(0, -2)}1f` },
        { ...signature, permitDeadline: signature.permitDeadline! + 1 },
        { ...signature, permitSignature: undefined, permitDeadline: undefined },
      ];
      const fields = [
        'depositSignature.permitSignature',
        'depositSignature.permitDeadline',
        'depositSignature.permitSignature',
      ];
      for (const [i, repeat] of tampered.entries()) {
        const error = await api.executeIntent({ intentId, depositSignature: repeat }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(InvalidArgumentError);
        expect((error as InvalidArgumentError).message).toContain(`${fields[i]}: differs from the deposit`);
      }
      expect(await storedEntry()).toMatchObject({
        permitSignature: permit,
        permitDeadline: signature.permitDeadline,
      });
      // The same signature again is harmless.
      expect((await api.executeIntent({ intentId, depositSignature: signature })).intentStatus).toBe(
        'EXECUTING',
      );
    } finally {
      await svc.startEngine();
    }
    const receipt = await waitDone(intentId);
    expect(receipt.status).toBe('SUCCEEDED');
    expect(await balanceOf(beta, beta.entry.tokens.USDC!, recipient)).toBeGreaterThanOrEqual(
      intent.quote.toAmountMin,
    );
    expect(await balanceOf(alpha, alpha.entry.tokens.USDC!, wallet.address)).toBe(
      amount - intent.depositTransaction.amount,
    );
  }, 60_000);
});

describe('ExecuteIntent refuses a gasless deposit it cannot relay, before spending gas', () => {
  let wallet: PrivateKeyAccount;
  let target: Awaited<ReturnType<typeof quoteAndCommit>>;
  let other: Awaited<ReturnType<typeof quoteAndCommit>>;

  beforeAll(async () => {
    wallet = await fundedWallet(alpha, usdc('100'));
    target = await quoteAndCommit(wallet.address);
    other = await quoteAndCommit(wallet.address, usdc('30'));
  }, 60_000);

  async function refusal(signature: DepositSignature): Promise<InvalidArgumentError> {
    const relayer = svc.net.devnet.accounts.relayer!.address;
    const nonceBefore = await alpha.publicClient.getTransactionCount({ address: relayer });
    const error = await api
      .executeIntent({ intentId: target.intent.intentId, depositSignature: signature })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((await svc.store.intents.getForEngine(target.intent.intentId))?.status).toBe('COMMITTED');
    expect(await alpha.publicClient.getTransactionCount({ address: relayer })).toBe(nonceBefore);
    return error as InvalidArgumentError;
  }

  it('a signature for another intent', async () => {
    const forOther = await depositSignature(wallet, other.intent, other.gasFeeOptions);
    // The fee option travels beside the signature: the target's offered one, so the signed intent is the one
    // thing that differs (the other quote's fee differs whenever the gas price moved between the two quotes).
    const error = await refusal({ ...forOther, selectedGasFeeOption: tokenOption(target.gasFeeOptions) });
    expect(error.message).toContain('depositSignature.intentSignature');
    expect(error.message).toContain(`signs intent ${other.intent.intentId}`);
  });

  it('a signature for another chain', async () => {
    const s = await depositSignature(wallet, target.intent, target.gasFeeOptions, {
      chainId: beta.entry.chainId,
    });
    const error = await refusal(s);
    expect(error.message).toContain('depositSignature.intentSignature');
    expect(error.message).toContain(`signed for chain ${beta.entry.chainId}`);
  });

  it('an expired deadline', async () => {
    const s = await depositSignature(wallet, target.intent, target.gasFeeOptions, {
      deadline: (await chainNow(alpha)) - 1,
    });
    expect((await refusal(s)).message).toMatch(/depositSignature\.deadline: expired at/);
  });

  it('a fee option the quote did not offer, the native option, or a signature over another fee', async () => {
    const offered = tokenOption(target.gasFeeOptions);
    const cheaper = { ...offered, amount: offered.amount - 1n };
    const s = await depositSignature(wallet, target.intent, target.gasFeeOptions, { option: cheaper });
    expect((await refusal(s)).message).toMatch(/depositSignature\.selectedGasFeeOption: is not one of/);

    const native = target.gasFeeOptions.feeOptions.find((o) => o.tokenAddress === zeroAddress)!;
    const n = await depositSignature(wallet, target.intent, target.gasFeeOptions, { option: native });
    expect((await refusal(n)).message).toMatch(/selectedGasFeeOption: is the native option/);

    const signedCheaper = await depositSignature(wallet, target.intent, target.gasFeeOptions, {
      option: cheaper,
    });
    const swapped = { ...signedCheaper, selectedGasFeeOption: offered };
    expect((await refusal(swapped)).message).toContain('depositSignature.intentSignature: recovers');
  });

  it('a signature by someone other than the owner', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    // The stranger signs the owner's struct (user = the owner), so it recovers the stranger.
    const s = await depositSignature(stranger, target.intent, target.gasFeeOptions, { user: wallet.address });
    const error = await refusal(s);
    expect(error.message).toContain(`recovers ${stranger.address}, not the intent owner`);
  });

  it('a permit for another spender', async () => {
    const s = await depositSignature(wallet, target.intent, target.gasFeeOptions);
    const deadline = s.permitDeadline!;
    const wrong = await signPermit(alpha, wallet, {
      spender: other.intent.originIntentAddress as Address,
      value: target.intent.depositTransaction.amount,
      deadline,
    });
    expect((await refusal({ ...s, permitSignature: wrong })).message).toContain(
      'depositSignature.permitSignature: is neither',
    );
  });
});
