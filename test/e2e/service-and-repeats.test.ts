/**
 * The same journey on /rpc/Service with the spec's names through plain fetch JSON (no client: bigints are
 * decimal strings both ways), and ExecuteIntent repeated after SUCCEEDED through the official client.
 * Real devnet, real engine, real API on a port, SQLite.
 */
import { IntentStatusError, TrailsApi } from '@0xtrails/api';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { balanceOf, type E2eService, startE2eService } from './support/e2e-fixture.ts';
import { freshAddress, quoteRequest, usdc } from './support/requests.ts';
import { runIntent } from './support/run-intent.ts';

/** One intent on the devnet takes ~2 s; this leaves room on a loaded 2-core machine. */
const INTENT_TIMEOUT_MS = 60_000;

let svc: E2eService;
let api: TrailsApi;
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

// biome-ignore lint/suspicious/noExplicitAny: the /rpc/Service answers are read as untyped JSON on purpose
type Json = Record<string, any>;

async function post(method: string, body: unknown): Promise<Json> {
  const response = await fetch(`${svc.url}/rpc/Service/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': svc.key },
    body: JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
  });
  const json = (await response.json()) as Json;
  expect({ method, status: response.status }).toEqual({ method, status: 200 });
  return json;
}

describe('/rpc/Service with the spec names', () => {
  it(
    'quotes, commits, executes and waits to SUCCEEDED; USDC moves alpha → beta',
    async () => {
      const recipient = freshAddress();
      const usdcA = alpha.entry.tokens.USDC as Address;
      const usdcB = beta.entry.tokens.USDC as Address;
      const userBefore = await balanceOf(alpha, usdcA, user);

      const { intent } = await post(
        'QuoteIntent',
        quoteRequest({
          owner: user,
          from: alpha,
          fromToken: 'USDC',
          to: beta,
          toToken: 'USDC',
          recipient,
          amountIn: usdc('40'),
        }),
      );
      expect(intent.serviceVersion).toBeDefined();
      expect(intent.trailsVersion).toBeUndefined();
      expect(intent.fees.serviceFeeTotal).toMatch(/^[1-9][0-9]*$/);
      expect(intent.serviceContracts.serviceIntentEntrypointAddress).toBe(
        alpha.entry.contracts.intentFactory,
      );
      expect(await post('CommitIntent', { intent })).toEqual({ intentId: intent.intentId });

      const tx = intent.depositTransaction as { to: Address; data: Hex; value?: string; amount: string };
      const hash = await alpha
        .walletFor('user')
        .sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value ?? 0) });
      await alpha.publicClient.waitForTransactionReceipt({ hash });
      const executed = await post('ExecuteIntent', {
        intentId: intent.intentId,
        depositTransactionHash: hash,
      });
      expect(executed.intentId).toBe(intent.intentId);

      let last: string[] | undefined;
      const seen: string[][] = [];
      let answer: Json;
      do {
        answer = await post('WaitIntentReceipt', { intentId: intent.intentId, lastReceiptStates: last });
        last = answer.receiptStates as string[];
        seen.push(last);
      } while (!answer.done);

      const receipt = answer.intentReceipt;
      expect(receipt.status).toBe('SUCCEEDED');
      expect(last).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
      expect(seen.flat()).not.toContain('SENT'); // the client's spelling stays on /rpc/Trails
      expect(receipt.summary.originTokenAmount).toBe(tx.amount); // bigints as decimal strings
      expect(receipt.summary.destinationTokenMetadata.symbol).toBe('USDC');
      expect(receipt.summary.finishedAt).toMatch(/Z$/);
      for (const leg of [
        receipt.depositTransaction,
        receipt.originTransaction,
        receipt.destinationTransaction,
      ]) {
        const mined = await svc.chain(leg.chainId).publicClient.getTransactionReceipt({ hash: leg.txnHash });
        expect(mined.status).toBe('success');
      }

      expect(userBefore - (await balanceOf(alpha, usdcA, user))).toBe(BigInt(tx.amount));
      expect(await balanceOf(beta, usdcB, recipient)).toBeGreaterThanOrEqual(
        BigInt(intent.quote.toAmountMin),
      );
    },
    INTENT_TIMEOUT_MS,
  );
});

describe('ExecuteIntent after SUCCEEDED', () => {
  it(
    "answers the client's IntentStatusError with status=SUCCEEDED in cause, and nothing moves again",
    async () => {
      const recipient = freshAddress();
      const req = quoteRequest({
        owner: user,
        from: alpha,
        fromToken: 'USDC',
        to: beta,
        toToken: 'USDC',
        recipient,
        amountIn: usdc('25'),
      });
      const { intent, depositHash } = await runIntent(svc, api, req);
      const delivered = await balanceOf(beta, beta.entry.tokens.USDC as Address, recipient);

      const error = await api
        .executeIntent({ intentId: intent.intentId, depositTransactionHash: depositHash })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IntentStatusError);
      expect((error as IntentStatusError).cause).toContain('status=SUCCEEDED');

      const { intentReceipt } = await api.getIntentReceipt({ intentId: intent.intentId });
      expect(intentReceipt.status).toBe('SUCCEEDED');
      expect(await balanceOf(beta, beta.entry.tokens.USDC as Address, recipient)).toBe(delivered);
    },
    INTENT_TIMEOUT_MS,
  );
});
