/**
 * QuoteIntent's EARN and WITHDRAW modes on the devnet with the real engine: the client names a market, never
 * vault calldata. A cross-chain exit is one intent whose first origin call redeems the deposited shares: the
 * user's DAI-vault shares on beta end as USDC on alpha (through the official 0.9.4 client, and on the seed's
 * prefix by plain JSON); an EARN intent ends as shares of gamma's USDC vault held by the receiver. Balances
 * are read on-chain. The members the server does not offer are refused naming them.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, decodeFunctionData, erc20Abi, type Hex, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultAbi } from '../../src/yield/index.ts';
import { startTestSwitchyard, type TestSwitchyard } from '../harness/app.ts';
import { balanceOf } from '../harness/balances.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { executeAndWait } from '../harness/execute-and-wait.ts';
import { assetsFor, type Json, type Prefix, rpc, sharesOf } from '../yield/support.ts';

/** DAI the user puts into beta's vault before the exits. */
const ENTER_DAI = '1000';
/** USDC the exact-output exit must deliver on alpha. */
const EXIT_USDC = '100';
/** USDC the EARN intent spends on alpha. */
const EARN_USDC = '200';
/** Requests per minute for the suite's key: the WaitIntentReceipt loop polls faster than a devnet key allows. */
const KEY_RATE_LIMIT_PER_MINUTE = 60_000;

let app: TestSwitchyard;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;
let daiVault: Address;
let daiMarket: string;
let api: TrailsApi;

const fresh = (): Address => privateKeyToAddress(generatePrivateKey());
const idOf = (chain: TestDevnetChain, vault: string) =>
  `erc4626-${chain.entry.chainId}-${vault.toLowerCase()}`;

async function call(method: string, body: Json, prefix: Prefix = 'Trails'): Promise<Json> {
  const { status, json } = await rpc(app, method, body, prefix);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

/** The wallet sends `tx` on `chain` and waits for it. */
async function sendFromUser(chain: TestDevnetChain, tx: { to: string; data: string }): Promise<Hex> {
  const hash = await chain.walletFor('user').sendTransaction({ to: tx.to as Address, data: tx.data as Hex });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

/** The user's one deposit as the intent describes it, ExecuteIntent, then WaitIntentReceipt until done. */
async function depositAndWait(chain: TestDevnetChain, intent: Json): Promise<string> {
  const hash = await sendFromUser(chain, intent.depositTransaction);
  return executeAndWait(api, intent.intentId, hash);
}

/** QuoteIntent through the official client: members it does not type (mode, earnMarketId) pass through. */
async function quote(request: Json): Promise<Json> {
  const { intent } = await api.quoteIntent(request as Parameters<TrailsApi['quoteIntent']>[0]);
  return intent as unknown as Json;
}

beforeAll(async () => {
  app = await startTestSwitchyard({
    projectName: 'vault-modes',
    keyRateLimitPerMinute: KEY_RATE_LIMIT_PER_MINUTE,
  });
  [alpha, beta, gamma] = app.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = app.net.devnet.accounts.user.address;
  api = new TrailsApi(app.key, { hostname: app.url });
  daiVault = beta.entry.contracts.daiVault as Address;
  daiMarket = idOf(beta, daiVault);
  const enter = await call('YieldCreateEnterAction', {
    earnMarketId: daiMarket,
    userWalletAddress: user,
    args: { amount: ENTER_DAI },
  });
  for (const tx of enter.payload.transactions as Json[])
    await sendFromUser(beta, tx as { to: string; data: string });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('WITHDRAW: a vault exit across chains in one intent', () => {
  it('delivers an exact amount of USDC on alpha for shares of the DAI vault on beta (seed prefix, by market id)', async () => {
    const usdcAlpha = alpha.entry.tokens.USDC as Address;
    const wanted = parseUnits(EXIT_USDC, 6);
    const sharesBefore = await sharesOf(beta, daiVault, user);
    const usdcBefore = await balanceOf(alpha, usdcAlpha, user);
    const { intent, gasFeeOptions } = await call(
      'QuoteIntent',
      {
        ownerAddress: user,
        originChainId: beta.entry.chainId,
        originTokenAddress: beta.entry.tokens.DAI,
        destinationChainId: alpha.entry.chainId,
        destinationTokenAddress: usdcAlpha,
        destinationTokenAmount: wanted.toString(),
        tradeType: 'EXACT_OUTPUT',
        mode: 'WITHDRAW',
        earnMarketId: daiMarket,
      },
      'Service',
    );
    // The deposit is shares of the vault; the first origin call redeems them into the account.
    expect(intent.depositTransaction).toMatchObject({ tokenAddress: daiVault, chainId: beta.entry.chainId });
    const shares = BigInt(intent.depositTransaction.amount);
    expect(shares).toBeGreaterThan(0n);
    expect(shares).toBeLessThan(sharesBefore);
    const [redeem] = intent.originCalls.calls as Json[];
    expect(redeem!.to).toBe(daiVault);
    expect(decodeFunctionData({ abi: vaultAbi, data: redeem!.data }).functionName).toBe('redeem');
    expect(intent.quoteRequest).toMatchObject({ mode: 'WITHDRAW', earnMarketId: daiMarket });
    // DAI has a permit, the vault's shares do not: a gasless deposit would sign for the shares.
    expect(gasFeeOptions.feeOptions.map((o: Json) => o.is2612)).toEqual(
      gasFeeOptions.feeOptions.map(() => false),
    );
    expect(gasFeeOptions.feeOptions.map((o: Json) => o.tokenAddress)).toContain(beta.entry.tokens.DAI);

    await call('CommitIntent', { intent }, 'Service');
    expect(await depositAndWait(beta, intent)).toBe('SUCCEEDED');
    expect(await balanceOf(alpha, usdcAlpha, user)).toBe(usdcBefore + wanted);
    expect(await sharesOf(beta, daiVault, user)).toBe(sharesBefore - shares);
    // Nothing stays in the intent account on beta: no shares, no DAI.
    expect(await sharesOf(beta, daiVault, intent.originIntentAddress)).toBe(0n);
    expect(await balanceOf(beta, beta.entry.tokens.DAI as Address, intent.originIntentAddress)).toBe(0n);
  });

  it('redeems every share the owner holds when no amount is given, named by the vault (official client)', async () => {
    const usdcAlpha = alpha.entry.tokens.USDC as Address;
    const sharesBefore = await sharesOf(beta, daiVault, user);
    const daiBefore = await balanceOf(beta, beta.entry.tokens.DAI as Address, user);
    const usdcBefore = await balanceOf(alpha, usdcAlpha, user);
    const worth = await assetsFor(beta, daiVault, sharesBefore);
    const intent = await quote({
      ownerAddress: user,
      originChainId: beta.entry.chainId,
      originTokenAddress: daiVault,
      destinationChainId: alpha.entry.chainId,
      destinationTokenAddress: usdcAlpha,
      tradeType: 'EXACT_INPUT',
      mode: 'WITHDRAW',
    });
    expect(BigInt(intent.depositTransaction.amount)).toBe(sharesBefore);
    // The route spends what the shares redeem for now; the quote is in the underlying after fees.
    expect(BigInt(intent.quote.fromAmount)).toBe(worth);
    expect(intent.fees.feeTokenAddress).toBe(beta.entry.tokens.DAI);
    await api.commitIntent({ intent: intent as never });
    expect(await depositAndWait(beta, intent)).toBe('SUCCEEDED');
    expect(await sharesOf(beta, daiVault, user)).toBe(0n);
    const received = (await balanceOf(alpha, usdcAlpha, user)) - usdcBefore;
    expect(received).toBeGreaterThanOrEqual(BigInt(intent.quote.toAmountMin));
    // The vault earned between the quote and the redeem: that surplus DAI came back to the owner on beta.
    expect(await balanceOf(beta, beta.entry.tokens.DAI as Address, user)).toBeGreaterThanOrEqual(daiBefore);
    expect(await sharesOf(beta, daiVault, intent.originIntentAddress)).toBe(0n);
  });
});

describe('EARN: into a vault by market id', () => {
  it('ends as shares of gamma’s USDC vault held by the receiver, with no calldata from the client', async () => {
    const vault = gamma.entry.contracts.usdcVault as Address;
    const receiver = fresh();
    const amount = parseUnits(EARN_USDC, 6);
    const userSharesBefore = await sharesOf(gamma, vault, user);
    const intent = await quote({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: alpha.entry.tokens.USDC,
      destinationChainId: gamma.entry.chainId,
      destinationTokenAddress: vault,
      destinationToAddress: receiver,
      originTokenAmount: amount,
      tradeType: 'EXACT_INPUT',
      mode: 'EARN',
      earnMarketId: idOf(gamma, vault),
    });
    const calls = intent.destinationCalls.calls as Json[];
    const deposit = calls.find((c) => c.to === vault)!;
    const decoded = decodeFunctionData({ abi: vaultAbi, data: deposit.data });
    expect(decoded.functionName).toBe('deposit');
    expect(decoded.args[1]).toBe(receiver);
    await api.commitIntent({ intent: intent as never });
    expect(await depositAndWait(alpha, intent)).toBe('SUCCEEDED');
    const shares = await sharesOf(gamma, vault, receiver);
    expect(shares).toBeGreaterThan(0n);
    // Rounding in the vault's favour costs at most a base unit.
    expect((await assetsFor(gamma, vault, shares)) + 1n).toBeGreaterThanOrEqual(
      BigInt(intent.quote.toAmountMin),
    );
    expect(await sharesOf(gamma, vault, user)).toBe(userSharesBefore);
    // Everything that arrived went into the vault.
    const usdcGamma = gamma.entry.tokens.USDC as Address;
    expect(await balanceOf(gamma, usdcGamma, intent.destinationIntentAddress)).toBe(0n);
    expect(
      await gamma.publicClient.readContract({
        address: usdcGamma,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [intent.destinationIntentAddress, vault],
      }),
    ).toBe(0n);
  });
});

describe('QuoteIntent members this server does not offer, or cannot use', () => {
  const base = () => ({
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: alpha.entry.tokens.USDC,
    destinationChainId: gamma.entry.chainId,
    destinationTokenAddress: gamma.entry.tokens.USDC,
    originTokenAmount: '10000000',
  });

  it('refuses each naming the member, on both prefixes', async () => {
    const gammaVault = gamma.entry.contracts.usdcVault as string;
    const cases: [Json, string, string][] = [
      [{ fundMethod: 'ONRAMP_MELD' }, 'fundMethod', 'fiat on-ramp'],
      [{ options: { intentProtocol: 'v1_5' } }, 'options.intentProtocol', 'v1'],
      [{ mode: 'STAKE' }, 'mode', 'must be one of SWAP, FUND, EARN, PAY, WITHDRAW'],
      [{ options: { preference: 'SLOWEST' } }, 'options.preference', 'must be one of'],
      [{ mode: 'EARN' }, 'earnMarketId', 'is required for mode EARN'],
      [{ mode: 'WITHDRAW' }, 'earnMarketId', 'is required for mode WITHDRAW'],
      [{ mode: 'EARN', earnMarketId: daiMarket }, 'earnMarketId', 'not on the destination chain'],
      [
        { mode: 'EARN', earnMarketId: idOf(gamma, gammaVault), destinationCallData: '0x12345678' },
        'destinationCallData',
        'must be left out',
      ],
      [
        { mode: 'EARN', earnMarketId: idOf(gamma, gamma.entry.contracts.daiVault as string) },
        'destinationTokenAddress',
        "must be the market's token",
      ],
    ];
    for (const prefix of ['Trails', 'Service'] as const) {
      for (const [extra, field, text] of cases) {
        const { status, json } = await rpc(app, 'QuoteIntent', { ...base(), ...extra }, prefix);
        expect(status, JSON.stringify(extra)).toBe(400);
        expect(json, JSON.stringify(extra)).toMatchObject({ code: 2000, cause: `field=${field}` });
        expect(json.msg).toContain(text);
      }
    }
    const unknown = await rpc(app, 'QuoteIntent', { ...base(), mode: 'EARN', earnMarketId: 'acme-1-0x01' });
    expect(unknown.json).toMatchObject({ error: 'NotFound', code: 8000 });
    // A WITHDRAW by an owner without shares names the amount it would have taken.
    const none = await rpc(app, 'QuoteIntent', {
      ...base(),
      ownerAddress: fresh(),
      originChainId: beta.entry.chainId,
      originTokenAddress: daiVault,
      originTokenAmount: undefined,
      mode: 'WITHDRAW',
    });
    expect(none.json).toMatchObject({ code: 2000, cause: 'field=originTokenAmount' });
  });

  it('accepts the reference values that change nothing here', async () => {
    for (const extra of [
      { fundMethod: 'WALLET' },
      { fundMethod: 'DIRECT_TRANSFER' },
      { mode: 'SWAP' },
      { mode: 'PAY' },
      { mode: 'FUND' },
      { options: { intentProtocol: 'v1' } },
    ]) {
      const { intent } = await call('QuoteIntent', { ...base(), ...extra });
      expect(intent.quoteRequest).toMatchObject(extra);
    }
  });
});
