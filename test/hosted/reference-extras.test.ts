/**
 * The rest of the hosted reference that applies here, through HTTP on both prefixes on a devnet (no engine
 * runs: the test sends the relayer's origin transaction itself where it needs one):
 * BuildOIFRefundTransaction returns an unfilled order's locked USDC to the owner in a transaction a stranger
 * sends; QuoteIntent's planned transaction states, passthrough, intent protocol, timed refund time and
 * testnet flag; the receipt summary's mode and quoted amounts; the USD-only exchange rate and currency list;
 * no edges and no on-ramp countries; RuntimeStatus' screening and edge flags; TokenInfo.featureIndex.
 */
import { type Address, decodeFunctionData, type Hex, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intentFactoryAbi } from '../../src/contracts/abis.generated.ts';
import { balanceOf } from '../harness/balances.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import { type Json, type Prefix, rpc, startYieldServer, warp, type YieldServer } from '../yield/support.ts';

/** What the cross-chain quote spends, in whole USDC. */
const SPEND_USDC = '50';

let net: TestDevnet;
let server: YieldServer;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

async function call(method: string, body: Json, prefix: Prefix = 'Trails'): Promise<Json> {
  const { status, json } = await rpc(server, method, body, prefix);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

async function sendAs(
  chain: TestDevnetChain,
  role: 'user' | 'relayer' | 'deployer',
  tx: { to: string; data: string },
) {
  const hash = await chain.walletFor(role).sendTransaction({ to: tx.to as Address, data: tx.data as Hex });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
}

const usdcAcross = (extra: Json = {}): Json => ({
  ownerAddress: user,
  originChainId: alpha.entry.chainId,
  originTokenAddress: alpha.entry.tokens.USDC,
  destinationChainId: beta.entry.chainId,
  destinationTokenAddress: beta.entry.tokens.USDC,
  originTokenAmount: parseUnits(SPEND_USDC, 6).toString(),
  ...extra,
});

beforeAll(async () => {
  net = await startTestDevnet();
  server = await startYieldServer(net);
  [alpha, beta] = net.chains as [TestDevnetChain, TestDevnetChain];
  user = net.devnet.accounts.user.address;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await net?.stop();
});

describe('BuildOIFRefundTransaction', () => {
  it('returns an unfilled order to its owner in a transaction anyone sends, once the refund opens', async () => {
    const usdc = alpha.entry.tokens.USDC as Address;
    const { intent } = await call('QuoteIntent', usdcAcross());
    await call('CommitIntent', { intent });
    const before = await call('BuildOIFRefundTransaction', { intentId: intent.intentId });
    expect(before).toMatchObject({ status: 'NOT_OPENED', ready: false, chainId: alpha.entry.chainId });

    // The deposit, then the relayer's origin transaction as quoted: the order is locked, and nobody fills it.
    await sendAs(alpha, 'user', intent.depositTransaction);
    await sendAs(alpha, 'relayer', { to: intent.originMetaTxn.contract, data: intent.originMetaTxn.input });
    const open = await call('BuildOIFRefundTransaction', { intentId: intent.intentId }, 'Service');
    expect(open).toMatchObject({
      intentId: intent.intentId,
      status: 'OPEN',
      ready: false,
      to: alpha.entry.contracts.originSettler,
      value: '0',
      chainId: alpha.entry.chainId,
    });
    expect(open.orderId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(open.data).toBe(before.data);

    // Past the fill deadline and the settler's grace on the origin chain's clock.
    const opensAt = BigInt(Date.parse(open.orderExpiresAt) / 1000);
    const now = (await alpha.publicClient.getBlock()).timestamp;
    await warp(alpha, Number(opensAt - now) + 1);
    const ready = await call('BuildOIFRefundTransaction', { intentId: intent.intentId });
    expect(ready).toMatchObject({ status: 'OPEN', ready: true, data: open.data, to: open.to });

    const owned = await balanceOf(alpha, usdc, user);
    await sendAs(alpha, 'deployer', { to: ready.to, data: ready.data });
    const locked = BigInt(intent.depositTransaction.amount) - BigInt(intent.fees.feeTokenAmount);
    expect(await balanceOf(alpha, usdc, user)).toBe(owned + locked);
    const after = await call('BuildOIFRefundTransaction', { intentId: intent.intentId });
    expect(after).toMatchObject({ status: 'REFUNDED', ready: false });
  });

  it('refuses an intent on one chain naming intentId, and an unknown intent as NotFound', async () => {
    const { intent } = await call(
      'QuoteIntent',
      usdcAcross({
        destinationChainId: alpha.entry.chainId,
        destinationTokenAddress: alpha.entry.tokens.DAI,
      }),
    );
    const same = await rpc(server, 'BuildOIFRefundTransaction', { intentId: intent.intentId });
    expect(same.json).toMatchObject({ code: 2000, cause: 'field=intentId' });
    expect(same.json.msg).toContain('locks no order');
    const unknown = await rpc(server, 'BuildOIFRefundTransaction', { intentId: `0x${'ab'.repeat(32)}` });
    expect(unknown.json).toMatchObject({ error: 'NotFound', code: 8000 });
  });
});

describe('QuoteIntent and receipts: the reference members', () => {
  it('answer planned states, no passthrough, the protocol, the timed refund time and the testnet flag', async () => {
    for (const prefix of ['Trails', 'Service'] as const) {
      const answer = await call('QuoteIntent', usdcAcross({ mode: 'PAY' }), prefix);
      expect(answer.transactionStates).toEqual([
        { id: 'deposit', label: 'Deposit', chainId: alpha.entry.chainId },
        { id: 'origin', label: 'Origin execution', chainId: alpha.entry.chainId },
        { id: 'destination', label: 'Destination execution', chainId: beta.entry.chainId },
      ]);
      expect(answer.passthrough).toEqual({ eligible: false });
      const { intent } = answer;
      expect(intent.intentProtocol).toBe('v1');
      expect(intent.isTestnet).toBe(true);
      // The origin account's own deadline, from which its refund is open to anyone.
      const { args } = decodeFunctionData({ abi: intentFactoryAbi, data: intent.originMetaTxn.input as Hex });
      expect(BigInt(intent.timedRefundUnlockTimestamp)).toBe((args[0] as { deadline: bigint }).deadline);

      const { intentReceipt } = await call('GetIntentReceipt', { intentId: intent.intentId }, prefix);
      expect(intentReceipt.summary).toMatchObject({
        mode: 'PAY',
        quotedOriginTokenAmount: intent.depositTransaction.amount,
        quotedDestinationTokenAmount: intent.quote.toAmount,
      });
    }
  });
});

describe('GetIntentHistory: the reference filters that apply', () => {
  it('filters by origin and destination token, and by the one intent protocol', async () => {
    const dai = alpha.entry.tokens.DAI as string;
    const { intent } = await call(
      'QuoteIntent',
      usdcAcross({ destinationChainId: alpha.entry.chainId, destinationTokenAddress: dai }),
    );
    const entries = async (body: Json, prefix: Prefix = 'Trails') =>
      (await call('GetIntentHistory', { page: { pageSize: 100 }, ...body }, prefix)).intents as Json[];
    const ids = async (body: Json, prefix?: Prefix) => (await entries(body, prefix)).map((e) => e.intentId);
    const all = await entries({});
    const toDai = all.filter(
      (e) => e.receipt.summary.destinationTokenAddress.toLowerCase() === dai.toLowerCase(),
    );
    expect(toDai.map((e) => e.intentId)).toContain(intent.intentId);
    expect(toDai.length).toBeLessThan(all.length);
    expect(await ids({ destinationTokenAddress: dai.toUpperCase().replace('0X', '0x') }, 'Service')).toEqual(
      toDai.map((e) => e.intentId),
    );
    expect(await ids({ originTokenAddress: alpha.entry.tokens.USDC })).toEqual(all.map((e) => e.intentId));
    expect(await ids({ originTokenAddress: dai })).toEqual([]);
    expect(await ids({ byIntentProtocol: 'v1' })).toEqual(all.map((e) => e.intentId));
    expect(await ids({ byIntentProtocol: 'v1_5' })).toEqual([]);
    // No intent has a Solana/Tron edge; AUTO names every provider.
    expect(await ids({ byEdgeRail: 'SOLANA' })).toEqual([]);
    expect(await ids({ bySwapProvider: 'AUTO' })).toEqual(all.map((e) => e.intentId));
    const search = await call('SearchIntents', { byOwnerAddress: user, byEdgeMode: 'ORIGIN' }, 'Service');
    expect(search.intents).toEqual([]);
    expect((await call('SearchIntents', { byOwnerAddress: user })).intents.length).toBe(all.length);
  });

  it('refuses a route-provider filter it cannot apply, naming it', async () => {
    for (const field of ['bySwapProvider', 'byBridgeProvider']) {
      const { json } = await rpc(server, 'GetIntentHistory', { [field]: 'RELAY' });
      expect(json).toMatchObject({ code: 2000, cause: `field=${field}` });
      expect(json.msg).toContain('not supported');
    }
  });
});

describe('the catalogue’s USD, edge and on-ramp methods', () => {
  it('answer USD only, no edges and no on-ramp countries, on both prefixes', async () => {
    for (const prefix of ['Trails', 'Service'] as const) {
      const usd = { name: 'US Dollar', symbol: 'USD', value: 1, vsCurrency: 'USD', currencyType: 'fiat' };
      expect(await call('GetExchangeRate', {}, prefix)).toEqual({ exchangeRate: usd });
      expect(await call('GetExchangeRate', { toCurrency: 'usd' }, prefix)).toEqual({ exchangeRate: usd });
      const eur = await rpc(server, 'GetExchangeRate', { toCurrency: 'EUR' }, prefix);
      expect(eur.json).toMatchObject({ code: 2000, cause: 'field=toCurrency' });
      expect(await call('GetFiatCurrencyList', {}, prefix)).toEqual({
        currencies: [{ code: 'USD', symbol: '$', name: 'US Dollar', flag: '🇺🇸', decimals: 2 }],
      });
      expect(await call('GetEdges', {}, prefix)).toEqual({ edges: [] });
      expect(await call('GetCountryList', {}, prefix)).toEqual({ countries: [] });
      for (const provider of ['HYPERLANE', 'LZ_TRANSFER', 'OIF', 'SOMNIA_SWAP']) {
        expect(await call('GetChains', { routeProvider: provider }, prefix)).toEqual({ chains: [] });
      }
      const { status } = await call('RuntimeStatus', {}, prefix);
      expect(status).toMatchObject({ walletScreeningEnabled: false, edgesEnabled: [] });
    }
  });

  it('numbers each token by its place in the chain’s list', async () => {
    const { tokens } = await call('GetTokenList', { chainIds: [alpha.entry.chainId] });
    expect(tokens.map((t: Json) => t.featureIndex)).toEqual(tokens.map((_: Json, i: number) => i));
    expect(tokens.length).toBeGreaterThan(2);
  });
});
