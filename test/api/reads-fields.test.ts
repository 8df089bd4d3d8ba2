/**
 * The members the spec lists, filled from real data, and the owner's signatures kept out of every read,
 * on the devnet with the real engine and the official client (`@0xtrails/api` 0.9.4):
 *
 * - Intent.id and Intent.projectId on GetIntent and SearchIntents;
 * - IntentTransaction.metaTxnId, metaTxnFeeQuote, bridgeGas and calldata on the relayer's transactions of
 *   a gasless intent (and metaTxnId, metaTxnFeeQuote on its deposit, which that relayed call performs);
 * - TokenBalance.priceUsd and balanceUsd where the price source knows the token;
 * - no read answers the owner's intent or permit signature (the store keeps them for the engine).
 */
import type { GasFeeOptions, Intent, TrailsApi } from '@0xtrails/api';
import { type Address, erc20Abi, type Hex, parseEther, parseUnits, zeroAddress } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAndWait } from '../../src/devnet/send-and-wait.ts';
import { quoteAndCommitUsdc, signDeposit, waitReceiptDone } from '../gasless/client-flow.ts';
import { fundedWallet, type GaslessService, startGaslessService } from '../gasless/support.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';

const usdc = (n: string) => parseUnits(n, 6);
/** Every read method a client can get an intent's data from, with the request that names the intent. */
const READS = [
  'GetIntent',
  'GetIntentReceipt',
  'WaitIntentReceipt',
  'SearchIntents',
  'GetIntentHistory',
  'GetIntentTransactionHistory',
] as const;

let svc: GaslessService;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let projectId: number;

beforeAll(async () => {
  svc = await startGaslessService();
  api = svc.api;
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
  projectId = (await svc.store.projects.findByName('gasless-test'))!.id;
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

/** A raw request with the client's own access key (its fetch adds the header). */
async function post(path: 'Trails' | 'Service', method: string, body: unknown): Promise<string> {
  const response = await api.getFetch()(`${api.getHostname()}/rpc/${path}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${method}: ${text.slice(0, 200)}`).toBe(200);
  return text;
}

/** The raw answer of every read method about this intent, on both paths. */
async function everyRead(intent: { intentId: string; ownerAddress: string }): Promise<string[]> {
  const bodies: Record<(typeof READS)[number], unknown> = {
    GetIntent: { intentId: intent.intentId },
    GetIntentReceipt: { intentId: intent.intentId },
    WaitIntentReceipt: { intentId: intent.intentId, lastReceiptStates: ['UNKNOWN'] },
    SearchIntents: { byIntentId: intent.intentId },
    GetIntentHistory: { byOwnerAddress: intent.ownerAddress, includeBalances: true },
    GetIntentTransactionHistory: { byOwnerAddress: intent.ownerAddress },
  };
  const texts: string[] = [];
  for (const path of ['Trails', 'Service'] as const) {
    for (const method of READS) texts.push(await post(path, method, bodies[method]));
    texts.push(await post(path, 'GetIntentHistory', { byOwnerAddress: intent.ownerAddress }));
  }
  return texts;
}

/** Alpha USDC → beta USDC for `wallet`, quoted and committed. */
const quoteAndCommit = (wallet: Address, amount: bigint) =>
  quoteAndCommitUsdc(api, { from: alpha, to: beta }, wallet, amount);

/** A permit deposit's DepositSignature for the intent, the gas fee paid in USDC. */
const permitDeposit = (wallet: PrivateKeyAccount, intent: Intent, g: GasFeeOptions) =>
  signDeposit(alpha, wallet, intent, g);

const waitDone = (intentId: string) => waitReceiptDone(api, intentId);

describe('a gasless intent as the reads show it', () => {
  let wallet: PrivateKeyAccount;
  let intent: Intent;
  let signature: Awaited<ReturnType<typeof permitDeposit>>;
  const hexOf = (signatureHex: string) => signatureHex.slice(2).toLowerCase();

  beforeAll(async () => {
    const amount = usdc('30');
    wallet = await fundedWallet(alpha, amount);
    const quoted = await quoteAndCommit(wallet.address, amount);
    intent = quoted.intent;
    signature = await permitDeposit(wallet, intent, quoted.gasFeeOptions);
  }, 60_000);

  it('before it is relayed: the deposit shows its fee terms and meta-transaction, never the signatures', async () => {
    await svc.stopEngine();
    try {
      await api.executeIntent({ intentId: intent.intentId, depositSignature: signature });
      const { intentReceipt } = await api.getIntentReceipt({ intentId: intent.intentId });
      const deposit = intentReceipt.depositTransaction;
      expect(deposit.status).toBe('PENDING');
      expect(deposit.metaTxnId).toBe(intent.originMetaTxn.id);
      expect(deposit.metaTxnFeeQuote).toBe(signature.selectedGasFeeOption.amount.toString());
      expect(deposit.depositIntentEntry).toEqual({
        feeAmount: signature.selectedGasFeeOption.amount.toString(),
        feeToken: signature.selectedGasFeeOption.tokenAddress.toLowerCase(),
        feeCollector: signature.selectedGasFeeOption.feeCollectorAddress.toLowerCase(),
        permitDeadline: signature.permitDeadline,
        userNonce: 0,
        deadline: signature.deadline,
      });
      // Not in any answer, in any form: neither path, no read method, not in calldata (nothing sent yet).
      for (const text of await everyRead(intent)) {
        expect(text.toLowerCase()).not.toContain(hexOf(signature.intentSignature));
        expect(text.toLowerCase()).not.toContain(hexOf(signature.permitSignature!));
      }
      // The engine still has them: journaled on the deposit row.
      const rows = await svc.store.transactions.list(intent.intentId);
      const entry = rows.find((r) => r.kind === 'deposit')?.meta?.depositIntentEntry as Record<
        string,
        unknown
      >;
      expect(entry.intentSignature).toBe(signature.intentSignature);
      expect(entry.permitSignature).toBe(signature.permitSignature);
    } finally {
      await svc.startEngine();
    }
  }, 60_000);

  it("once done: the relayer's transactions carry their meta-transaction, fee quote, bridge gas and calldata", async () => {
    const receipt = await waitDone(intent.intentId);
    expect(receipt.status).toBe('SUCCEEDED');
    const origin = receipt.originTransaction;
    expect(origin.metaTxnId).toBe(intent.originMetaTxn.id);
    expect(origin.metaTxnFeeQuote).toBe(intent.fees.originGas.metaTxnGasQuote);
    const raw = JSON.parse(await post('Service', 'GetIntentReceipt', { intentId: intent.intentId }));
    // Cross-chain: the destination gas the fill carries (the client's types have no bridgeGas here).
    const quoted = JSON.parse(await post('Service', 'GetIntent', { intentId: intent.intentId })).intent;
    expect(BigInt(quoted.originMetaTxn.bridgeGas)).toBeGreaterThan(0n);
    expect(raw.intentReceipt.originTransaction.bridgeGas).toBe(quoted.originMetaTxn.bridgeGas);
    const sentOrigin = await alpha.publicClient.getTransaction({ hash: origin.txnHash as Hex });
    expect(raw.intentReceipt.originTransaction.calldata).toBe(sentOrigin.input);

    const destination = receipt.destinationTransaction!;
    expect(destination.metaTxnId).toBe(intent.destinationMetaTxn!.id);
    expect(destination.metaTxnFeeQuote).toBe(intent.fees.destinationGas!.metaTxnGasQuote);
    const sentDestination = await beta.publicClient.getTransaction({ hash: destination.txnHash as Hex });
    expect(raw.intentReceipt.destinationTransaction.calldata).toBe(sentDestination.input);

    // The deposit happened inside the origin transaction; its entry still has no signatures.
    expect(receipt.depositTransaction.txnHash).toBe(origin.txnHash);
    expect(receipt.depositTransaction.metaTxnId).toBe(intent.originMetaTxn.id);
    const entries = (await everyRead(intent)).flatMap((text) =>
      [...text.matchAll(/"depositIntentEntry":\{[^}]*\}/g)].map((m) => m[0]),
    );
    // Receipts, WaitIntentReceipt and history entries on both paths carry one each.
    expect(entries.length).toBeGreaterThanOrEqual(8);
    for (const entry of entries) expect(entry).not.toMatch(/Signature/);
  }, 60_000);

  it('GetIntent and SearchIntents answer the stored id and the project of the intent', async () => {
    const stored = (await svc.store.intents.get({ projectId, intentId: intent.intentId }))!;
    // The seed spec's Intent has id and projectId; the 0.9.4 client's type predates them.
    type Recorded = Intent & { id?: number; projectId?: number };
    const read = (await api.getIntent({ intentId: intent.intentId })).intent as Recorded;
    expect(read.id).toBe(stored.id);
    expect(read.projectId).toBe(projectId);
    const intents = (await api.searchIntents({ byOwnerAddress: wallet.address })).intents as Recorded[];
    expect(intents.map((i) => [i.intentId, i.id, i.projectId])).toEqual([
      [intent.intentId, stored.id, projectId],
    ]);
    for (const path of ['Trails', 'Service'] as const) {
      const text = await post(path, 'SearchIntents', { byIntentId: intent.intentId });
      expect(JSON.parse(text).intents[0]).toMatchObject({ id: stored.id, projectId });
    }
  });
});

describe('balances with their USD value', () => {
  it('includeBalances gives priceUsd and balanceUsd for tokens the price source knows', async () => {
    const owner = privateKeyToAddress(generatePrivateKey());
    const { intent } = await quoteAndCommit(owner, usdc('12'));
    const user = alpha.walletFor('user');
    const usdcAlpha = alpha.entry.tokens.USDC! as Address;
    // Short of the 12 the quote asks: a full deposit would let the engine's deposit watcher execute the
    // intent and sweep the address before the read below.
    const held = usdc('11.5');
    await sendAndWait(
      { publicClient: alpha.publicClient, walletClient: user },
      {
        address: usdcAlpha,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [intent.originIntentAddress as Address, held],
      },
    );
    const wei = parseEther('0.01');
    const hash = await user.sendTransaction({ to: intent.originIntentAddress as Address, value: wei });
    await alpha.publicClient.waitForTransactionReceipt({ hash });

    const [price] = (
      await api.getTokenPrices({ tokens: [{ chainId: alpha.entry.chainId, tokenAddress: zeroAddress }] })
    ).tokenPrices;
    expect(price?.priceUsd).toBeGreaterThan(0);
    const text = await post('Service', 'GetIntentHistory', { byOwnerAddress: owner, includeBalances: true });
    const entry = JSON.parse(text).intents[0];
    const tokens = entry.balances.find((b: { chainId: number }) => b.chainId === alpha.entry.chainId).tokens;
    const usdcBalance = tokens.find((t: { symbol: string }) => t.symbol === 'USDC');
    expect(usdcBalance).toMatchObject({ balance: held.toString(), priceUsd: '1', balanceUsd: '11.5' });
    const native = tokens.find((t: { contractAddress: string }) => t.contractAddress === zeroAddress);
    expect(native.balance).toBe(wei.toString());
    expect(Number(native.priceUsd)).toBe(price!.priceUsd);
    expect(Number(native.balanceUsd)).toBeCloseTo(0.01 * price!.priceUsd!, 6);
  }, 60_000);
});
