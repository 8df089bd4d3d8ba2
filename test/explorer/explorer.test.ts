/**
 * The intent explorer in real Chromium (playwright-core, Debian's chromium) on a devnet with the real engine:
 * the page opens with the devnet key filled in, finds an intent by its deposit hash, follows it from EXECUTING
 * to SUCCEEDED without a reload, shows each transaction with its chain, hash and block, and shows where the
 * refund of a reverted destination call went. Screenshots of each page go to test-output/explorer/ for a
 * person to look at.
 */
import path from 'node:path';
import { type QuoteIntentRequest, TrailsApi } from '@0xtrails/api';
import type { Browser, Locator, Page } from 'playwright-core';
import { type Address, encodeFunctionData, formatUnits, type Hex, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accruingVaultAbi } from '../../src/contracts/abis.generated.ts';
import { AMOUNT_PLACEHOLDER } from '../../src/intents/plan/constants.ts';
import { FAST_ENGINE_OPTIONS, startTestSwitchyard, type TestSwitchyard } from '../harness/app.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { CHROMIUM_INSTALL_TIMEOUT_MS, launchChromium, SCREENSHOT_DIR } from './support/browser.ts';
import { depositAndExecute, quoteAndCommit, waitForReceipt } from './support/client-intent.ts';

/** What the page may take to show a change the engine made (ms): a WaitIntentReceipt answer, then a render. */
const PAGE_UPDATE_MS = 60_000;
const PHONE = { width: 390, height: 844 };

interface RefundRow {
  chainId: number;
  txnHash: string;
  toAddress: string;
  tokenAmount: string;
}
interface ChainLinks {
  id: number;
  blockExplorerUrl?: string;
  blockExplorer?: { name: string; url: string };
}

let svc: TestSwitchyard;
let api: TrailsApi;
let browser: Browser;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  // Chromium first: on a fresh machine it is installed here, which takes minutes.
  browser = await launchChromium();
  svc = await startTestSwitchyard({ engineOptions: FAST_ENGINE_OPTIONS, rateLimit: false });
  api = new TrailsApi(svc.key, { hostname: svc.url });
  [alpha, beta, gamma] = svc.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = svc.net.devnet.accounts.user.address;
}, CHROMIUM_INSTALL_TIMEOUT_MS + 120_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

const usdc = (amount: string) => parseUnits(amount, 6);
const EXACT_INPUT = 'EXACT_INPUT' as QuoteIntentRequest['tradeType'];

/** A method's answer as the server sends it (members the 0.9.4 client's types leave out, e.g. the refund row). */
async function raw<T>(method: string, body: object): Promise<T> {
  const response = await fetch(`${svc.url}/rpc/Trails/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': svc.key },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}
/** The text a person sees (innerText: laid out, a line per block), not the DOM's raw text. */
// biome-ignore lint/performance/useDomNodeTextContent: playwright's Locator, not a DOM node; the layout's line breaks are the point
const shown = (locator: Locator) => locator.innerText();
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });

/** The explorer's own read of an intent (deadlines, block and gas). */
async function details(intentId: string): Promise<{ deadlines: Record<string, string> }> {
  const response = await fetch(`${svc.url}/explorer/rpc/IntentDetails`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': svc.key },
    body: JSON.stringify({ intentId }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { deadlines: Record<string, string> };
}

/** A page that records every URL it asks for, so a test can say that nothing left this server. */
async function openPage(viewport?: { width: number; height: number }) {
  const page = await browser.newPage(viewport ? { viewport } : {});
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  return { page, requested };
}

describe('the explorer on a devnet, in Chromium', () => {
  it('opens with the devnet key, finds an intent by its deposit hash and follows it to SUCCEEDED without a reload', async () => {
    const recipient = '0x00000000000000000000000000000000000e4b1e' as Address;
    const intent = await quoteAndCommit(api, {
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: alpha.entry.tokens.USDC!,
      destinationChainId: beta.entry.chainId,
      destinationTokenAddress: beta.entry.tokens.USDC!,
      destinationToAddress: recipient,
      originTokenAmount: usdc('100'),
      tradeType: EXACT_INPUT,
    });
    // Beta stops mining: the solver's fill waits in its pool, so the intent stays EXECUTING until the test
    // lets it through, and the page has to catch the change on its own.
    await beta.testClient.setAutomine(false);
    let depositHash: Hex;
    try {
      depositHash = await depositAndExecute(api, alpha, intent);
      await waitForReceipt(api, intent.intentId, (r) => r.originTransaction.status === 'SUCCEEDED');

      const { page, requested } = await openPage();
      await page.goto(`${svc.url}/explorer`);
      await expect.poll(() => page.getByLabel('Access key').inputValue()).toBe(svc.key);
      // Kept for the tab only.
      expect(await page.evaluate('sessionStorage.getItem("switchyard-explorer-access-key")')).toBe(svc.key);
      await page.getByRole('heading', { name: 'Latest intents' }).waitFor();
      await page.locator(`tr[data-intent-id="${intent.intentId}"]`).waitFor();
      await shot(page, '1-latest-intents');

      // Search by keyboard: type the deposit hash, press Enter.
      await page.getByLabel('Search', { exact: true }).fill(depositHash);
      await page.getByLabel('Search', { exact: true }).press('Enter');
      await page.locator('#intent-status [data-status="EXECUTING"]').waitFor({ timeout: PAGE_UPDATE_MS });
      expect(new URL(page.url()).pathname).toBe(`/explorer/intents/${intent.intentId}`);
      // The deposit the search named is the highlighted transaction.
      await expect
        .poll(() => page.locator('section.transaction.highlighted').getAttribute('data-kind'))
        .toBe('deposit');
      // The words carry the plan's real fill deadline, and the refund goes to the owner on the origin chain.
      const { deadlines } = await details(intent.intentId);
      const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
      await expect
        .poll(() => shown(page.locator('.next')))
        .toContain(`If the fill does not happen by ${utc(deadlines.fillDeadline)}, `);
      expect(await shown(page.locator('.next'))).toContain(
        `go back to ${user.slice(0, 6)}…${user.slice(-4)} on ${alpha.entry.name}`,
      );
      await page.evaluate('window.stillTheSamePage = true');
      await shot(page, '2-intent-executing');

      await beta.testClient.mine({ blocks: 1 });
      await beta.testClient.setAutomine(true);
      await page.locator('#intent-status [data-status="SUCCEEDED"]').waitFor({ timeout: PAGE_UPDATE_MS });
      expect(await page.evaluate('window.stillTheSamePage')).toBe(true);

      const receipt = await waitForReceipt(api, intent.intentId, (r) => r.status === 'SUCCEEDED');
      expect(receipt.depositTransaction.txnHash).toBe(depositHash.toLowerCase());
      for (const [step, tx, chain] of [
        ['deposit', receipt.depositTransaction, alpha],
        ['origin', receipt.originTransaction, alpha],
        ['destination', receipt.destinationTransaction!, beta],
      ] as const) {
        const entry = page.locator(`.timeline li[data-step="${step}"]`);
        await expect.poll(() => shown(entry)).toContain(tx.txnHash!);
        expect(await shown(entry)).toContain(chain.entry.name);
        // The block and gas the page shows are the chain's.
        const mined = await chain.publicClient.getTransactionReceipt({ hash: tx.txnHash as Hex });
        const section = page.locator(`section.transaction[data-kind="${step}"]`);
        await expect.poll(() => shown(section)).toContain(`Block\n${mined.blockNumber}`);
        expect(await shown(section)).toContain(`${mined.gasUsed.toLocaleString('en-US')} gas`);
      }
      await expect
        .poll(() => shown(page.locator('.next')))
        .toMatch(
          new RegExp(
            `^Nothing more will happen: .* USDC .* reached ${recipient.slice(0, 6)}…${recipient.slice(-4)} on ${beta.entry.name}`,
            'm',
          ),
        );
      expect(await shown(page.locator('table.fees'))).toMatch(/Service fee[\s\S]*Total/);
      await shot(page, '3-intent-succeeded');

      // Readable on a phone: nothing wider than the screen.
      await page.setViewportSize(PHONE);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await shot(page, '4-intent-on-a-phone');

      // Offline: every request went to this server (no CDN, no font service).
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => !url.startsWith(svc.url))).toEqual([]);
      await page.close();
    } finally {
      await beta.testClient.setAutomine(true);
    }
  });

  it('shows where the refund went when the destination call reverts, opened from the chain’s explorer link', async () => {
    const vault = gamma.entry.contracts.usdcVault as Address;
    // deposit() without an approval: the vault's transferFrom fails, so the destination calls revert.
    const data = encodeFunctionData({
      abi: accruingVaultAbi,
      functionName: 'deposit',
      args: [BigInt(AMOUNT_PLACEHOLDER), user],
    });
    const intent = await quoteAndCommit(api, {
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: alpha.entry.tokens.USDC!,
      destinationChainId: gamma.entry.chainId,
      destinationTokenAddress: gamma.entry.tokens.USDC!,
      destinationToAddress: vault,
      destinationCallData: data,
      originTokenAmount: usdc('50'),
      tradeType: EXACT_INPUT,
    });
    await depositAndExecute(api, alpha, intent);
    await waitForReceipt(api, intent.intentId, (r) => r.status === 'REFUNDED');
    const { intentReceipt } = await raw<{ intentReceipt: { refundTransaction: RefundRow } }>(
      'GetIntentReceipt',
      {
        intentId: intent.intentId,
      },
    );
    const refund = intentReceipt.refundTransaction;
    expect(refund.chainId).toBe(gamma.entry.chainId);

    // The link a client builds from GetChains: `<blockExplorerUrl>/tx/<hash>` (0.18.4: `blockExplorer.url`).
    const { chains } = await raw<{ chains: ChainLinks[] }>('GetChains', {});
    const gammaInfo = chains.find((c) => c.id === gamma.entry.chainId)!;
    expect(gammaInfo.blockExplorerUrl).toBe(`${svc.url}/explorer/chains/${gamma.entry.chainId}`);
    expect(gammaInfo.blockExplorer?.url).toBe(gammaInfo.blockExplorerUrl);

    const { page } = await openPage();
    await page.goto(`${gammaInfo.blockExplorerUrl}/tx/${refund.txnHash}`);
    await page.locator('#intent-status [data-status="REFUNDED"]').waitFor({ timeout: PAGE_UPDATE_MS });
    const refundSection = page.locator('section.transaction[data-kind="refund"]');
    const text = await shown(refundSection);
    expect(text).toContain(refund.txnHash!);
    expect(text).toContain(`${gamma.entry.name} (${gamma.entry.chainId})`);
    expect(text.toLowerCase()).toContain(`to\n${user.toLowerCase()}`);
    const refunded = `${formatUnits(BigInt(refund.tokenAmount), 6)} USDC`;
    expect(text).toContain(refunded);
    const mined = await gamma.publicClient.getTransactionReceipt({ hash: refund.txnHash as Hex });
    expect(text).toContain(`Block\n${mined.blockNumber}`);
    const next = await shown(page.locator('.next'));
    expect(next).toMatch(/^Why: destination calls failed: CallFailed/m);
    expect(next).toContain(`Refunded: ${refunded}`);
    expect(next).toContain(`on ${gamma.entry.name} in transaction`);
    await shot(page, '5-intent-refunded');
    await page.close();
  });

  it('IntentDetails answers the plan’s real deadlines to the intent’s project only, with webrpc errors', async () => {
    const { intents } = await raw<{ intents: { intentId: string; expiresAt: string }[] }>(
      'GetIntentHistory',
      {},
    );
    const [latest] = intents;
    const details = async (body: unknown, key?: string) => {
      const response = await fetch(`${svc.url}/explorer/rpc/IntentDetails`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key && { 'x-access-key': key }) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const mine = await details({ intentId: latest!.intentId }, svc.key);
    expect(mine.status).toBe(200);
    const deadlines = mine.body.deadlines as Record<string, string>;
    // The origin deadline is the quote's expiry plus the 10-minute execute window (docs/intents.md).
    expect(Date.parse(deadlines.originDeadline!) - Date.parse(latest!.expiresAt)).toBe(600_000);
    expect(Date.parse(deadlines.fillDeadline!)).toBeGreaterThan(Date.parse(deadlines.originDeadline!));
    expect((mine.body.refundRecipient as string).toLowerCase()).toBe(user.toLowerCase());

    const other = await svc.store.projects.ensure('someone-else');
    const { key: otherKey } = await svc.store.accessKeys.create({ projectId: other.id });
    const theirs = await details({ intentId: latest!.intentId }, otherKey);
    expect([theirs.status, theirs.body.error]).toEqual([400, 'NotFound']);
    const keyless = await details({ intentId: latest!.intentId });
    expect([keyless.status, keyless.body.error]).toEqual([401, 'Unauthorized']);
    const malformed = await details({ intentId: '0x12' }, svc.key);
    expect([malformed.status, malformed.body.error, malformed.body.cause]).toEqual([
      400,
      'InvalidArgument',
      'field=intentId',
    ]);
  });

  it('shows the chain health RuntimeStatus reports', async () => {
    const { page } = await openPage();
    await page.goto(`${svc.url}/explorer/health`);
    for (const chain of [alpha, beta, gamma]) {
      const row = page.locator(`tr[data-service="chain:${chain.entry.chainId}"]`);
      await row.waitFor();
      expect(await shown(row)).toMatch(new RegExp(`${chain.entry.name}[\\s\\S]*HEALTHY`));
    }
    expect(await shown(page.locator('tr[data-service="database"]'))).toContain('HEALTHY');
    await shot(page, '6-chain-health');
    await page.close();
  });
});
