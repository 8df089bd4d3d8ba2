/**
 * An intent quoted with upper-case and mis-checksummed addresses runs to SUCCEEDED with the real engine, and
 * is found again by its owner and intent addresses in any letter case: once through the official client on
 * /rpc/Trails, once with plain HTTP on /rpc/Service. The address rule itself: address-case.test.ts.
 */
import type { QuoteIntentRequest, TrailsApi as TrailsApiType } from '@0xtrails/api';
import { TrailsApi } from '@0xtrails/api';
import { type Address, getAddress, type Hex, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, type E2eService, startE2eService } from '../e2e/support/e2e-fixture.ts';
import { waitUntilDone } from '../e2e/support/run-intent.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';

/** '0xAbC…' → '0xABC…' (only the hex digits change case). */
const upper = (address: string) => `0x${address.slice(2).toUpperCase()}`;
/** A mixed case that is not the EIP-55 checksum: every letter's case flipped. */
const flipped = (address: string) =>
  `0x${[...address.slice(2)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')}`;
const spellings = (address: string) => [
  address.toLowerCase(),
  getAddress(address),
  upper(address),
  flipped(address),
];

/** One cross-chain intent takes a few seconds on the devnet; the engine polls every 20 ms. */
const INTENT_TIMEOUT_MS = 90_000;

type Prefix = 'Trails' | 'Service';
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response JSON
type Json = Record<string, any>;

let svc: E2eService;
let api: TrailsApiType;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  svc = await startE2eService();
  api = new TrailsApi(svc.key, { hostname: svc.url });
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
  user = svc.net.devnet.accounts.user.address;
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

async function call(prefix: Prefix, method: string, body: unknown): Promise<Json> {
  const response = await fetch(`${svc.url}/rpc/${prefix}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': svc.key },
    body: JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
  });
  const json = (await response.json()) as Json;
  expect(response.status, `${prefix}/${method}: ${JSON.stringify(json)}`).toBe(200);
  return json;
}

/** The user sends the deposit exactly as the quote describes it; returns the mined hash. */
async function deposit(depositTransaction: { to: string; data: string; value?: unknown }): Promise<Hex> {
  const hash = await alpha.walletFor('user').sendTransaction({
    to: depositTransaction.to as Address,
    data: depositTransaction.data as Hex,
    value: BigInt((depositTransaction.value as string | undefined) ?? 0),
  });
  await alpha.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

/** Alpha USDC → beta USDC, 100 USDC in, every address in the request spelled by `spell`. */
function request(spell: (address: string) => string, recipient: Address): QuoteIntentRequest {
  return {
    ownerAddress: spell(user),
    originChainId: alpha.entry.chainId,
    originTokenAddress: spell(alpha.entry.tokens.USDC!),
    destinationChainId: beta.entry.chainId,
    destinationTokenAddress: spell(beta.entry.tokens.USDC!),
    destinationToAddress: spell(recipient),
    originTokenAmount: parseUnits('100', 6),
    destinationTokenAmount: 0n,
    tradeType: 'EXACT_INPUT' as QuoteIntentRequest['tradeType'],
  };
}

/** The intent is found by every spelling of its owner and intent addresses, on both prefixes. */
async function expectFoundByAnyCase(intentId: string, origin: string, destination: string): Promise<void> {
  for (const prefix of ['Trails', 'Service'] as const) {
    for (const owner of spellings(user)) {
      const found = await call(prefix, 'SearchIntents', { byOwnerAddress: owner });
      expect(
        found.intents.map((i: Json) => i.intentId),
        `${prefix} ${owner}`,
      ).toContain(intentId);
      const history = await call(prefix, 'GetIntentHistory', { byOwnerAddress: owner });
      expect(
        history.intents.map((i: Json) => i.intentId),
        `${prefix} ${owner}`,
      ).toContain(intentId);
      const summaries = await call(prefix, 'GetIntentTransactionHistory', { byOwnerAddress: owner });
      expect(
        summaries.intents.map((i: Json) => i.intentId),
        `${prefix} ${owner}`,
      ).toContain(intentId);
    }
    for (const spelled of spellings(origin)) {
      const found = await call(prefix, 'SearchIntents', { byOriginIntentAddress: spelled });
      expect(found.intents.map((i: Json) => i.intentId)).toEqual([intentId]);
    }
    for (const spelled of spellings(destination)) {
      const found = await call(prefix, 'SearchIntents', { byDestinationIntentAddress: spelled });
      expect(found.intents.map((i: Json) => i.intentId)).toEqual([intentId]);
    }
  }
  const viaClient = await api.searchIntents({ byOwnerAddress: upper(user) });
  expect(viaClient.intents.map((i) => i.intentId)).toContain(intentId);
}

describe('an intent quoted with upper-case addresses', () => {
  it(
    'runs to SUCCEEDED through the official client and is found by its owner in any case',
    async () => {
      const recipient = privateKeyToAddress(generatePrivateKey());
      const { intent } = await api.quoteIntent(request(upper, recipient));
      // Answered checksummed: the form every later comparison and on-chain call takes.
      expect(intent.ownerAddress).toBe(user);
      expect(intent.quoteRequest.ownerAddress).toBe(user);
      expect(intent.quoteRequest.destinationToAddress).toBe(recipient);
      expect(intent.depositTransaction.tokenAddress).toBe(alpha.entry.tokens.USDC);

      const { intentId } = await api.commitIntent({ intent });
      const hash = await deposit(intent.depositTransaction as unknown as { to: string; data: string });
      await api.executeIntent({ intentId, depositTransactionHash: upper(hash) });
      const { receipt } = await waitUntilDone(api, intentId);

      expect(receipt.status).toBe('SUCCEEDED');
      expect(receipt.depositTransaction.txnHash).toBe(hash.toLowerCase());
      const received = await balanceOf(beta, beta.entry.tokens.USDC!, recipient);
      expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
      expect(received).toBeGreaterThan(0n);
      await expectFoundByAnyCase(intentId, intent.originIntentAddress, intent.destinationIntentAddress!);
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'runs to SUCCEEDED on /rpc/Service with mis-checksummed addresses, committing the intent as answered',
    async () => {
      const recipient = privateKeyToAddress(generatePrivateKey());
      const { intent } = await call('Service', 'QuoteIntent', request(flipped, recipient));
      expect(intent.ownerAddress).toBe(user);
      expect(intent.quoteRequest.destinationToAddress).toBe(recipient);

      const { intentId } = await call('Service', 'CommitIntent', { intent });
      const hash = await deposit(intent.depositTransaction);
      await call('Service', 'ExecuteIntent', { intentId, depositTransactionHash: hash });
      let answer: Json;
      let last: string[] | undefined;
      do {
        answer = await call('Service', 'WaitIntentReceipt', { intentId, lastReceiptStates: last });
        last = answer.receiptStates;
      } while (!answer.done);

      expect(answer.intentReceipt.status).toBe('SUCCEEDED');
      expect(answer.intentReceipt.ownerAddress.toLowerCase()).toBe(user.toLowerCase());
      const received = await balanceOf(beta, beta.entry.tokens.USDC!, recipient);
      expect(received).toBeGreaterThanOrEqual(BigInt(intent.quote.toAmountMin));
      await expectFoundByAnyCase(intentId, intent.originIntentAddress, intent.destinationIntentAddress);
    },
    INTENT_TIMEOUT_MS,
  );
});
