/**
 * The solver's inventory is part of the quote, through the official client against the whole service (the
 * real engine) on a devnet where the solver keeps only 1,000 USDC on beta:
 * - a quote larger than what it holds is refused: Unavailable (2002), naming the token, the chain and the
 *   amount available now, on both dialects;
 * - committed intents hold their fill: a later quote sees only what is left, quotes hold nothing, and a
 *   commit that no longer fits is refused the same way and leaves the intent QUOTED;
 * - once an intent's fill lands it holds nothing more (the balance shows it instead).
 */
import { type Intent, TrailsApi, UnavailableError } from '@0xtrails/api';
import { type Address, erc20Abi, formatUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, type E2eService, startE2eService } from '../e2e/support/e2e-fixture.ts';
import { freshAddress, quoteRequest, tokenOf, usdc } from '../e2e/support/requests.ts';
import { runIntent } from '../e2e/support/run-intent.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';

/** What the solver keeps of its USDC on beta for these tests (the rest goes elsewhere). */
const INVENTORY = usdc('1000');

let svc: E2eService;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;
let solver: Address;
let betaUsdc: Address;

beforeAll(async () => {
  svc = await startE2eService();
  api = new TrailsApi(svc.key, { hostname: svc.url });
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
  user = svc.net.devnet.accounts.user.address;
  solver = svc.net.devnet.accounts.solver!.address;
  betaUsdc = tokenOf(beta, 'USDC');
  const held = await balanceOf(beta, betaUsdc, solver);
  const hash = await beta.walletFor('solver').writeContract({
    address: betaUsdc,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [freshAddress(), held - INVENTORY],
  });
  await beta.publicClient.waitForTransactionReceipt({ hash });
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

const usdcToBeta = (amountIn: bigint) =>
  quoteRequest({
    owner: user,
    from: alpha,
    fromToken: 'USDC',
    to: beta,
    toToken: 'USDC',
    recipient: freshAddress(),
    amountIn,
  });

const shown = (amount: bigint) => `${formatUnits(amount, 6)} USDC`;

/** The refusal every path gives: Unavailable, naming the chain, the token and what is available. */
function expectInventoryRefusal(error: unknown, available: bigint) {
  expect(error).toBeInstanceOf(UnavailableError);
  const { message, code } = error as UnavailableError;
  expect(code).toBe(2002);
  expect(message).toContain(`solver inventory is short on chain ${beta.entry.chainId}`);
  expect(message).toContain(`so ${shown(available)} (token ${betaUsdc}) is available now`);
  expect(message).toMatch(/the route needs [0-9.]+ USDC$/);
}

async function rawQuote(dialect: 'Trails' | 'Service', amountIn: bigint) {
  const request = usdcToBeta(amountIn);
  const response = await fetch(`${svc.url}/rpc/${dialect}/QuoteIntent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': svc.key },
    body: JSON.stringify(request, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a quote the solver cannot fill', () => {
  it('is refused with Unavailable naming the token, the chain and the amount available now', async () => {
    const error = await api.quoteIntent(usdcToBeta(usdc('2000'))).catch((e: unknown) => e);
    expectInventoryRefusal(error, INVENTORY);

    for (const dialect of ['Trails', 'Service'] as const) {
      const { status, body } = await rawQuote(dialect, usdc('2000'));
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'Unavailable', code: 2002, status: 400 });
      expect(body.cause).toMatch(
        new RegExp(
          `^solver inventory: chainId=${beta.entry.chainId} token=${betaUsdc} available=${INVENTORY} required=[0-9]+$`,
        ),
      );
      expect(body.message).toBe(body.msg);
    }
  });
});

describe('committed intents hold their fill', () => {
  let first: Intent;
  let second: Intent;

  it('a later quote sees only what is left, and quotes themselves hold nothing', async () => {
    ({ intent: first } = await api.quoteIntent(usdcToBeta(usdc('600'))));
    await api.commitIntent({ intent: first });
    // A pure bridge route: what arrives is what the solver fills.
    const left = INVENTORY - first.quote.toAmount;

    const refused = await api.quoteIntent(usdcToBeta(usdc('600'))).catch((e: unknown) => e);
    expectInventoryRefusal(refused, left);

    ({ intent: second } = await api.quoteIntent(usdcToBeta(usdc('300'))));
    const { intent: third } = await api.quoteIntent(usdcToBeta(usdc('300')));
    await api.commitIntent({ intent: second });

    // The third was quoted while the second was only quoted; committed now, it no longer fits.
    const late = await api.commitIntent({ intent: third }).catch((e: unknown) => e);
    expectInventoryRefusal(late, left - second.quote.toAmount);
    const { intent: stored } = await api.getIntent({ intentId: third.intentId });
    expect(stored.status).toBe('QUOTED');
  });

  it('an intent whose fill lands holds nothing more: the balance shows it instead', async () => {
    const before = await balanceOf(beta, betaUsdc, solver);
    const { intent } = await runIntent(svc, api, usdcToBeta(usdc('50')));
    expect(await balanceOf(beta, betaUsdc, solver)).toBe(before - intent.quote.toAmount);
    const held = await svc.store.solverInventory.held({
      fillPurpose: 'solver-fill',
      chainId: beta.entry.chainId,
    });
    expect(held).toEqual([
      {
        chainId: beta.entry.chainId,
        tokenAddress: betaUsdc.toLowerCase(),
        amount: first.quote.toAmount + second.quote.toAmount,
      },
    ]);
    const left = before - intent.quote.toAmount - first.quote.toAmount - second.quote.toAmount;
    const refused = await api.quoteIntent(usdcToBeta(usdc('200'))).catch((e: unknown) => e);
    expectInventoryRefusal(refused, left);
  });
});
