/**
 * Positions in the devnet's vaults, through HTTP on both prefixes: the devnet user enters alpha's USDC vault
 * with the enter action's transactions, a month passes, and YieldGetAggregateBalances answers the shares,
 * their value and the yield earned exactly as the chain has them at the block it names; YieldCreateExitAction
 * withdraws an amount and then redeems the rest, each call sent by the wallet and checked on-chain; shares
 * sent to another address count at what they are worth when they arrive; a failed query is an entry of
 * `errors` beside the answered ones.
 */
import { type Address, erc20Abi, formatUnits, type Hex, parseAbi, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../harness/balances.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import {
  type Json,
  type Prefix,
  rpc,
  sharesOf,
  startYieldServer,
  warp,
  type YieldServer,
} from '../yield/support.ts';

/** The user's deposit, in whole USDC (the enter action's `args.amount`). */
const DEPOSIT_USDC = '1000';
/** The first exit takes this much USDC out (`args.amount`). */
const WITHDRAW_USDC = '250';
/** Time the chain moves between the deposit and the first reading: 30 days. */
const WARP_SECONDS = 30 * 24 * 3600;

const previewAbi = parseAbi(['function previewRedeem(uint256 shares) view returns (uint256)']);

let net: TestDevnet;
let server: YieldServer;
let alpha: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;
let usdc: Address;
let vault: Address;
let marketId: string;

const fresh = (): Address => privateKeyToAddress(generatePrivateKey());

async function call(method: string, body: Json, prefix: Prefix = 'Trails'): Promise<Json> {
  const { status, json } = await rpc(server, method, body, prefix);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

/** Sends the action's transactions from the user's wallet, in order, and waits for each. */
async function send(action: Json): Promise<void> {
  for (const step of action.transactions as Json[]) {
    const tx = step.unsignedTransaction;
    expect(tx.from.toLowerCase()).toBe(user.toLowerCase());
    const hash = await alpha
      .walletFor('user')
      .sendTransaction({ to: tx.to, data: tx.data as Hex, value: 0n });
    const receipt = await alpha.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
  }
}

/** What `shares` redeem for at `blockNumber`, read from the vault. */
const redeemable = (shares: bigint, blockNumber: bigint) =>
  alpha.publicClient.readContract({
    address: vault,
    abi: previewAbi,
    functionName: 'previewRedeem',
    args: [shares],
    blockNumber,
  });

/** The one position of `holder` in alpha's USDC vault, as YieldGetAggregateBalances answers it. */
async function position(holder: Address, prefix: Prefix = 'Trails'): Promise<Json> {
  const answer = await call(
    'YieldGetAggregateBalances',
    { queries: [{ address: holder, network: alpha.entry.name, yieldId: marketId }] },
    prefix,
  );
  expect(answer.errors).toEqual([]);
  expect(answer.items).toHaveLength(1);
  expect(answer.items[0].yieldId).toBe(marketId);
  return answer.items[0].balances[0];
}

/** The position's shares and value are the chain's at the block it names. */
async function expectOnChain(balance: Json, holder: Address): Promise<{ shares: bigint; value: bigint }> {
  const blockNumber = BigInt(balance.blockNumber);
  const shares = await alpha.publicClient.readContract({
    address: vault,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
    blockNumber,
  });
  const value = await redeemable(shares, blockNumber);
  expect(balance.shareAmountRaw).toBe(shares.toString());
  expect(balance.amountRaw).toBe(value.toString());
  expect(balance.amount).toBe(formatUnits(value, 6));
  return { shares, value };
}

beforeAll(async () => {
  net = await startTestDevnet();
  server = await startYieldServer(net);
  [alpha, , gamma] = net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = net.devnet.accounts.user.address;
  usdc = alpha.entry.tokens.USDC as Address;
  vault = alpha.entry.contracts.usdcVault as Address;
  marketId = `erc4626-${alpha.entry.chainId}-${vault.toLowerCase()}`;
  const enter = await call('YieldCreateEnterAction', {
    earnMarketId: marketId,
    userWalletAddress: user,
    args: { amount: DEPOSIT_USDC },
  });
  await send(enter.action);
  await warp(alpha, WARP_SECONDS);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await net?.stop();
});

describe('YieldGetAggregateBalances', () => {
  it('answers the shares, their value and the yield earned as the chain has them, on both prefixes', async () => {
    const deposited = parseUnits(DEPOSIT_USDC, 6);
    for (const prefix of ['Trails', 'Service'] as const) {
      const balance = await position(user, prefix);
      const { value } = await expectOnChain(balance, user);
      // A month of the vault's yield: worth more than was paid, by exactly the difference.
      expect(value).toBeGreaterThan(deposited);
      expect(balance.costBasisRaw).toBe(deposited.toString());
      expect(balance.earnedAmountRaw).toBe((value - deposited).toString());
      expect(balance.earnedAmount).toBe(formatUnits(value - deposited, 6));
      expect(balance).toMatchObject({
        address: user,
        type: 'active',
        isEarning: true,
        pendingActions: [],
        token: { symbol: 'USDC', address: usdc, decimals: 6, network: alpha.entry.name },
        shareToken: { address: vault, network: alpha.entry.name },
      });
      // USDC is priced at 1 on the devnet (GetTokenPrices): the USD values are the amounts.
      expect(Number(balance.amountUsd)).toBeCloseTo(Number(formatUnits(value, 6)), 6);
      expect(Number(balance.earnedAmountUsd)).toBeCloseTo(Number(formatUnits(value - deposited, 6)), 6);
    }
  });

  it('lists every position of an address on a network when no yieldId is given, named by chain id too', async () => {
    const byName = await call('YieldGetAggregateBalances', {
      queries: [{ address: user, network: alpha.entry.name }],
    });
    const byChainId = await call('YieldGetAggregateBalances', {
      queries: [{ address: user, network: String(alpha.entry.chainId) }],
    });
    for (const answer of [byName, byChainId]) {
      expect(answer.errors).toEqual([]);
      expect(answer.items.map((i: Json) => i.yieldId)).toEqual([marketId]);
    }
    // Nothing on gamma: no item, and no error.
    const none = await call('YieldGetAggregateBalances', {
      queries: [{ address: user, network: gamma.entry.name }],
    });
    expect(none).toEqual({ items: [], errors: [] });
  });

  it('reports the queries it cannot answer in errors and still answers the others', async () => {
    const gammaUsdc = `erc4626-${gamma.entry.chainId}-${(gamma.entry.contracts.usdcVault as string).toLowerCase()}`;
    const nobody = fresh();
    const answer = await call('YieldGetAggregateBalances', {
      queries: [
        { address: user, network: alpha.entry.name, yieldId: marketId },
        { address: user, network: 'Nowhere' },
        { address: user, network: alpha.entry.name, yieldId: gammaUsdc },
        { address: user, network: alpha.entry.name, yieldId: 'acme-1-0x01' },
        { address: nobody, network: gamma.entry.name, yieldId: gammaUsdc },
      ],
    });
    expect(answer.items.map((i: Json) => i.yieldId)).toEqual([marketId, gammaUsdc]);
    // A market the query names is answered even when the address holds none of it: no balance.
    expect(answer.items[1].balances).toEqual([]);
    expect(answer.errors).toEqual([
      {
        yieldId: '',
        error: "queries[1].network: 'Nowhere' has no yield markets here; YieldGetNetworks lists them",
      },
      {
        yieldId: gammaUsdc,
        error: `queries[2].yieldId: market ${gammaUsdc} is on ${gamma.entry.name}, not ${alpha.entry.name}`,
      },
      {
        yieldId: 'acme-1-0x01',
        error: "queries[3].yieldId: no yield market 'acme-1-0x01'; list them with YieldGetMarkets",
      },
    ]);
  });

  it('refuses a malformed address or too many queries as the whole call, naming the field', async () => {
    const bad = await rpc(server, 'YieldGetAggregateBalances', {
      queries: [{ address: '0x1234', network: alpha.entry.name }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 2000, cause: 'field=queries[0].address' });
    const many = await rpc(server, 'YieldGetAggregateBalances', {
      queries: Array.from({ length: 101 }, () => ({ address: user, network: alpha.entry.name })),
    });
    expect(many.status).toBe(400);
    expect(many.json).toMatchObject({ code: 2000, cause: 'field=queries' });
  });
});

describe('YieldCreateExitAction', () => {
  it('withdraws an amount: the receiver gets exactly it and the cost basis falls with the shares burned', async () => {
    const before = await expectOnChain(await position(user), user);
    const usdcBefore = await balanceOf(alpha, usdc, user);
    const exit = await call('YieldCreateExitAction', {
      earnMarketId: marketId,
      userWalletAddress: user,
      args: { amount: WITHDRAW_USDC },
    });
    const amount = parseUnits(WITHDRAW_USDC, 6);
    expect(exit.payload).toMatchObject({
      marketId,
      method: 'withdraw',
      amount: WITHDRAW_USDC,
      amountRaw: amount.toString(),
      vaultAddress: vault,
      receiverAddress: user,
    });
    expect(exit.payload.transactions).toEqual([exit.action.transactions[0].unsignedTransaction]);
    expect(exit.action).toMatchObject({ intent: 'exit', type: 'WITHDRAW', status: 'CREATED' });
    await send(exit.action);
    expect(await balanceOf(alpha, usdc, user)).toBe(usdcBefore + amount);
    const burned = before.shares - (await sharesOf(alpha, vault, user));
    // The share price only rises until the call is mined: it burns at most the shares quoted.
    expect(burned).toBeGreaterThan(0n);
    expect(burned).toBeLessThanOrEqual(BigInt(exit.payload.shareAmountRaw));

    const after = await position(user);
    const { value } = await expectOnChain(after, user);
    const deposited = parseUnits(DEPOSIT_USDC, 6);
    const basis = deposited - (deposited * burned) / before.shares;
    expect(after.costBasisRaw).toBe(basis.toString());
    expect(after.earnedAmountRaw).toBe((value - basis).toString());
  });

  it('counts shares sent to another address at their value on arrival: that address has earned nothing yet', async () => {
    const friend = fresh();
    const gift = (await sharesOf(alpha, vault, user)) / 10n;
    const hash = await alpha.walletFor('user').writeContract({
      address: vault,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [friend, gift],
    });
    await alpha.publicClient.waitForTransactionReceipt({ hash });
    const balance = await position(friend);
    const { value } = await expectOnChain(balance, friend);
    expect(balance.costBasisRaw).toBe(value.toString());
    expect(balance.earnedAmountRaw).toBe('0');
  });

  it('redeems the whole position without an amount: no shares left, at least the quoted underlying received', async () => {
    const usdcBefore = await balanceOf(alpha, usdc, user);
    const shares = await sharesOf(alpha, vault, user);
    const exit = await call(
      'YieldCreateExitAction',
      { earnMarketId: marketId, userWalletAddress: user },
      'Service',
    );
    expect(exit.payload).toMatchObject({ method: 'redeem', shareAmountRaw: shares.toString() });
    await send(exit.action);
    expect(await sharesOf(alpha, vault, user)).toBe(0n);
    expect(await balanceOf(alpha, usdc, user)).toBeGreaterThanOrEqual(
      usdcBefore + BigInt(exit.payload.amountRaw),
    );
    const answer = await call('YieldGetAggregateBalances', {
      queries: [{ address: user, network: alpha.entry.name }],
    });
    expect(answer).toEqual({ items: [], errors: [] });
  });

  it('refuses what cannot be withdrawn, naming the field', async () => {
    const empty = await rpc(server, 'YieldCreateExitAction', {
      earnMarketId: marketId,
      userWalletAddress: fresh(),
    });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ code: 2000, cause: 'field=userWalletAddress' });
    expect(empty.json.msg).toContain('holds no shares');

    const holder = net.devnet.accounts.deployer!.address;
    const tooMuch = await rpc(server, 'YieldCreateExitAction', {
      earnMarketId: marketId,
      userWalletAddress: holder,
      args: { amount: '100000000' },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json).toMatchObject({ code: 2000, cause: 'field=args.amount' });
    expect(tooMuch.json.msg).toContain('maxWithdraw');

    const both = await rpc(server, 'YieldCreateExitAction', {
      earnMarketId: marketId,
      userWalletAddress: holder,
      args: { amount: '1', useMaxAmount: true },
    });
    expect(both.json).toMatchObject({ code: 2000, cause: 'field=args.useMaxAmount' });

    const unknown = await rpc(server, 'YieldCreateExitAction', {
      earnMarketId: 'acme-1-0x01',
      userWalletAddress: holder,
    });
    expect(unknown.json).toMatchObject({ error: 'NotFound', code: 8000 });
  });
});
