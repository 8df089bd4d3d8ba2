/**
 * Issue 6 item 4: deposit into a vault on another chain in one intent. The user lists the markets, builds an
 * enter action for gamma's USDC vault, and quotes it from alpha with the deposit calldata as the destination
 * call (QuoteIntent → CommitIntent through the official 0.9.4 client), sends the one deposit on alpha,
 * calls ExecuteIntent and waits with WaitIntentReceipt. The real engine (relayer, solver, attester keys of
 * the devnet) runs it; at the end the user holds the vault's shares on gamma and its TVL has grown.
 */
import { type QuoteIntentRequest, TrailsApi } from '@0xtrails/api';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseAbi,
  parseUnits,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMOUNT_PLACEHOLDER } from '../../src/intents/plan/constants.ts';
import { startTestSwitchyard, type TestSwitchyard } from '../harness/app.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { executeAndWait } from '../harness/execute-and-wait.ts';
import { assetsFor, type Json, sharesOf } from './support.ts';

/** What the user deposits into the vault, in whole USDC (the enter action's `args.amount`). */
const DEPOSIT_USDC = '250';

/** Requests per minute for the suite's key: the WaitIntentReceipt loop polls faster than a devnet key allows. */
const KEY_RATE_LIMIT_PER_MINUTE = 60_000;

let app: TestSwitchyard;
let url: string;
let key: string;
let alpha: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  app = await startTestSwitchyard({
    projectName: 'yield-cross-chain',
    keyRateLimitPerMinute: KEY_RATE_LIMIT_PER_MINUTE,
  });
  ({ url, key } = app);
  [alpha, , gamma] = app.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = app.net.devnet.accounts.user.address;
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

async function call(method: string, body: Json): Promise<Json> {
  const response = await fetch(`${url}/rpc/Trails/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': key },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Json;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

const balance = (chain: TestDevnetChain, token: Address) =>
  chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [user] });

/** The user's one deposit on the origin chain, ExecuteIntent, then WaitIntentReceipt until done: the final status. */
async function depositAndWait(
  api: TrailsApi,
  intentId: string,
  deposit: { tokenAddress: string; toAddress: string; amount: bigint },
): Promise<string> {
  const hash = await alpha.walletFor('user').sendTransaction({
    to: deposit.tokenAddress as Address,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [deposit.toAddress as Address, deposit.amount],
    }),
  });
  await alpha.publicClient.waitForTransactionReceipt({ hash });
  return executeAndWait(api, intentId, hash);
}

const shareBalance = (vault: Address) => sharesOf(gamma, vault, user);

describe('deposit across chains in one intent', () => {
  it('lists, builds the enter action, quotes, commits, deposits on alpha, waits: the user holds shares on gamma', async () => {
    const api = new TrailsApi(key, { hostname: url });
    const listed = await call('YieldGetMarkets', { chainId: String(gamma.entry.chainId), search: 'USDC' });
    expect(listed.total).toBe(1);
    const market = listed.items[0] as Json;
    const vault = market.address as Address;
    expect(vault).toBe(gamma.entry.contracts.usdcVault);
    const tvlBefore = market.statistics.tvlUsd as number;
    const assetsBefore = BigInt(market.statistics.totalAssets);
    const sharesBefore = await shareBalance(vault);

    const action = await call('YieldCreateEnterAction', {
      earnMarketId: market.id,
      userWalletAddress: user,
      args: { amount: DEPOSIT_USDC },
    });
    const [, depositTx] = action.payload.transactions as Json[];
    expect(depositTx!.to).toBe(vault);
    const amount = parseUnits(DEPOSIT_USDC, 6);

    // Exact output: the quoted destination amount equals the deposit's amount word, so the engine fills that
    // word with what actually arrived in the destination account (docs/routing.md, destination call rule).
    const { intent } = await api.quoteIntent({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: alpha.entry.tokens.USDC!,
      destinationChainId: gamma.entry.chainId,
      destinationTokenAddress: market.metadata.token.address,
      originTokenAmount: 0n,
      destinationTokenAmount: amount,
      tradeType: 'EXACT_OUTPUT' as QuoteIntentRequest['tradeType'],
      destinationToAddress: vault,
      destinationCallData: depositTx!.data,
      destinationCallValue: 0n,
      destinationApproveAddress: vault,
    } as QuoteIntentRequest);
    expect(intent.quote.toAmount).toBe(amount);
    const destinationCalls = intent.destinationCalls?.calls ?? [];
    const depositCall = destinationCalls.find((c) => c.to.toLowerCase() === vault.toLowerCase());
    expect(depositCall?.data).toBe(depositTx!.data);

    const { intentId } = await api.commitIntent({ intent });
    const deposit = intent.depositTransaction;
    const usdcAlphaBefore = await balance(alpha, alpha.entry.tokens.USDC!);
    const status = await depositAndWait(api, intentId, deposit);
    expect(status).toBe('SUCCEEDED');

    expect(usdcAlphaBefore - (await balance(alpha, alpha.entry.tokens.USDC!))).toBe(deposit.amount);

    const shares = (await shareBalance(vault)) - sharesBefore;
    expect(shares).toBeGreaterThan(0n);
    const worth = await assetsFor(gamma, vault, shares);
    // ERC-4626 rounds in the vault's favour: the shares are worth what arrived, less at most a base unit.
    expect(worth + 1n).toBeGreaterThanOrEqual(amount);

    const after = (await call('YieldGetMarkets', { chainId: String(gamma.entry.chainId), search: 'USDC' }))
      .items[0] as Json;
    expect(BigInt(after.statistics.totalAssets) - assetsBefore).toBeGreaterThanOrEqual(amount);
    expect(after.statistics.tvlUsd - tvlBefore).toBeGreaterThanOrEqual(Number(DEPOSIT_USDC) - 0.000001);
    // The shares the engine's call minted went to the user named in the enter action's calldata.
    const decoded = decodeFunctionData({
      abi: parseAbi(['function deposit(uint256,address)']),
      data: depositTx!.data as Hex,
    });
    expect(decoded.args[1]).toBe(user);
  });

  it('deposits whatever arrived after a swap when the enter action carries the 0xdeadbeef… placeholder', async () => {
    const api = new TrailsApi(key, { hostname: url });
    const vault = gamma.entry.contracts.usdcVault as Address;
    const marketId = `erc4626-${gamma.entry.chainId}-${vault.toLowerCase()}`;
    const action = await call('YieldCreateEnterAction', {
      earnMarketId: marketId,
      userWalletAddress: user,
      args: { amountRaw: BigInt(AMOUNT_PLACEHOLDER).toString() },
    });
    const depositTx = (action.payload.transactions as Json[])[1]!;
    const sharesBefore = await shareBalance(vault);
    const usdcGammaBefore = await balance(gamma, gamma.entry.tokens.USDC!);
    // 100 DAI on alpha, swapped on the way: how much USDC arrives is only known at execution.
    const { intent } = await api.quoteIntent({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: alpha.entry.tokens.DAI!,
      destinationChainId: gamma.entry.chainId,
      destinationTokenAddress: gamma.entry.tokens.USDC!,
      originTokenAmount: parseUnits('100', 18),
      destinationTokenAmount: 0n,
      tradeType: 'EXACT_INPUT' as QuoteIntentRequest['tradeType'],
      destinationToAddress: vault,
      destinationCallData: depositTx.data,
      destinationCallValue: 0n,
      destinationApproveAddress: vault,
    } as QuoteIntentRequest);
    const { intentId } = await api.commitIntent({ intent });
    expect(await depositAndWait(api, intentId, intent.depositTransaction)).toBe('SUCCEEDED');
    const shares = (await shareBalance(vault)) - sharesBefore;
    const worth = await assetsFor(gamma, vault, shares);
    expect(worth + 1n).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
    // Everything that arrived went into the vault: no USDC leftover was swept back to the user on gamma.
    expect(await balance(gamma, gamma.entry.tokens.USDC!)).toBe(usdcGammaBefore);
    expect(worth).toBeGreaterThan(0n);
  });
});
