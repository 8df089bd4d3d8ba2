/**
 * QuoteIntent `options.preference` on the devnet, through HTTP and the official client. With alpha's
 * USDC/DAI V2 pair pushed far off its price, DAI on alpha → USDC on beta through V2 has two routes: swap on
 * alpha then bridge USDC (the one RECOMMENDED takes), or bridge DAI then swap on beta. Those quotes pin
 * `swapProvider` to UNISWAP_V2: the V3 pools on alpha keep DAI's price (the preference chooses between bridged
 * tokens; the swap router's choice within a leg is test/routing's). CHEAPEST quotes both and takes the
 * one that leaves the owner more, and running it delivers that on-chain; FASTEST takes the route with the
 * fewest legs (ETH → DAI); TRUSTLESS has no route across chains and is refused naming it, and quotes on one
 * chain.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, erc20Abi, type Hex, maxUint256, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintableTokenAbi, uniswapV2RouterAbi } from '../../src/devnet/abis.ts';
import { withGasMargin } from '../../src/devnet/send-and-wait.ts';
import { startTestSwitchyard, type TestSwitchyard } from '../harness/app.ts';
import { balanceOf } from '../harness/balances.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { executeAndWait } from '../harness/execute-and-wait.ts';
import { type Json, type Prefix, rpc } from '../yield/support.ts';

/** DAI dumped into alpha's USDC/DAI pool (10 M on each side): DAI there is then worth about 0.44 USDC. */
const DUMP_DAI = parseUnits('5000000', 18);
/** What the user sends in the DAI → USDC quotes. */
const SPEND_DAI = parseUnits('1000', 18);
/** Requests per minute for the suite's key: the WaitIntentReceipt loop polls faster than a devnet key allows. */
const KEY_RATE_LIMIT_PER_MINUTE = 60_000;

let app: TestSwitchyard;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;

async function quote(body: Json, prefix: Prefix = 'Trails'): Promise<Json> {
  const { status, json } = await rpc(app, 'QuoteIntent', body, prefix);
  expect(status, JSON.stringify(json)).toBe(200);
  return json.intent;
}

const daiToUsdc = (preference?: string): Json => ({
  ownerAddress: user,
  originChainId: alpha.entry.chainId,
  originTokenAddress: alpha.entry.tokens.DAI,
  destinationChainId: beta.entry.chainId,
  destinationTokenAddress: beta.entry.tokens.USDC,
  originTokenAmount: SPEND_DAI.toString(),
  tradeType: 'EXACT_INPUT',
  options: { swapProvider: 'UNISWAP_V2', ...(preference && { preference }) },
});

/** Swaps `DUMP_DAI` of freshly minted DAI into alpha's USDC/DAI pool, from the deployer. */
async function dumpDaiOnAlpha(): Promise<void> {
  const wallet = alpha.walletFor('deployer');
  const dai = alpha.entry.tokens.DAI as Address;
  const router = alpha.entry.contracts.uniswapV2Router as Address;
  const me = wallet.account.address;
  const send = async (hash: Hex) =>
    expect((await alpha.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
  await send(
    await wallet.writeContract({
      address: dai,
      abi: mintableTokenAbi,
      functionName: 'mint',
      args: [me, DUMP_DAI],
    }),
  );
  await send(
    await wallet.writeContract({
      address: dai,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, maxUint256],
    }),
  );
  const block = await alpha.publicClient.getBlock();
  const swap = {
    address: router,
    abi: uniswapV2RouterAbi,
    functionName: 'swapExactTokensForTokens',
    args: [DUMP_DAI, 0n, [dai, alpha.entry.tokens.USDC as Address], me, block.timestamp + 600n],
  } as const;
  // With a margin: estimated in the second of the devnet's pair sync, the swap skips the pair's price
  // accumulators, and mined in the next second it writes them and would run out of a bare estimate.
  const gas = withGasMargin(
    await alpha.publicClient.estimateContractGas({ ...swap, account: wallet.account }),
  );
  await send(await wallet.writeContract({ ...swap, gas }));
}

beforeAll(async () => {
  app = await startTestSwitchyard({
    projectName: 'route-preference',
    keyRateLimitPerMinute: KEY_RATE_LIMIT_PER_MINUTE,
  });
  [alpha, beta] = app.net.chains as [TestDevnetChain, TestDevnetChain];
  user = app.net.devnet.accounts.user.address;
  await dumpDaiOnAlpha();
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('options.preference', () => {
  it('CHEAPEST takes the route that leaves the owner more: bridge DAI, then swap on beta', async () => {
    const recommended = await quote(daiToUsdc());
    const explicit = await quote(daiToUsdc('RECOMMENDED'), 'Service');
    const cheapest = await quote(daiToUsdc('CHEAPEST'));
    // RECOMMENDED swaps on alpha, where DAI now buys little USDC, then bridges USDC.
    expect(recommended.quote.routeProviders).toEqual(['UNISWAP_V2', 'SWITCHYARD']);
    expect(explicit.quote.routeProviders).toEqual(recommended.quote.routeProviders);
    expect(cheapest.quote.routeProviders).toEqual(['SWITCHYARD', 'UNISWAP_V2']);
    const [rec, cheap] = [BigInt(recommended.quote.toAmount), BigInt(cheapest.quote.toAmount)];
    // About 0.44 USDC per DAI against about 1: more than twice as much.
    expect(cheap).toBeGreaterThan(2n * rec);
    expect(cheapest.quoteRequest.options).toEqual({ swapProvider: 'UNISWAP_V2', preference: 'CHEAPEST' });
  });

  it('runs the CHEAPEST route: the owner receives at least its minimum on beta', async () => {
    const api = new TrailsApi(app.key, { hostname: app.url });
    const usdcBeta = beta.entry.tokens.USDC as Address;
    const { intent } = await api.quoteIntent(
      daiToUsdc('CHEAPEST') as Parameters<TrailsApi['quoteIntent']>[0],
    );
    expect(intent.quote.routeProviders).toEqual(['SWITCHYARD', 'UNISWAP_V2']);
    await api.commitIntent({ intent });
    const before = await balanceOf(beta, usdcBeta, user);
    const deposit = intent.depositTransaction;
    const hash = await alpha.walletFor('user').writeContract({
      address: deposit.tokenAddress as Address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [deposit.toAddress as Address, deposit.amount],
    });
    await alpha.publicClient.waitForTransactionReceipt({ hash });
    expect(await executeAndWait(api, intent.intentId, hash)).toBe('SUCCEEDED');
    const received = (await balanceOf(beta, usdcBeta, user)) - before;
    expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
    expect(received).toBeGreaterThan(parseUnits('900', 6));
  });

  it('FASTEST takes a route with fewer legs than RECOMMENDED (ETH on alpha → DAI on beta)', async () => {
    const ethToDai = (preference?: string): Json => ({
      ownerAddress: user,
      originChainId: alpha.entry.chainId,
      originTokenAddress: '0x0000000000000000000000000000000000000000',
      destinationChainId: beta.entry.chainId,
      destinationTokenAddress: beta.entry.tokens.DAI,
      originTokenAmount: parseEther('0.1').toString(),
      ...(preference && { options: { preference } }),
    });
    const recommended = await quote(ethToDai());
    const fastest = await quote(ethToDai('FASTEST'), 'Service');
    // Wrap, swap to USDC, bridge USDC, swap to DAI: four legs (each swap on V2 or V3, whichever gives more);
    // FASTEST bridges WETH or DAI instead.
    const swap = expect.stringMatching(/^UNISWAP_V[23]$/);
    expect(recommended.quote.routeProviders).toEqual(['WETH', swap, 'SWITCHYARD', swap]);
    expect(fastest.quote.routeProviders).toHaveLength(3);
    expect(fastest.quote.routeProviders).toContain('SWITCHYARD');
  });

  it('TRUSTLESS is refused across chains naming options.preference, and quotes on one chain', async () => {
    for (const prefix of ['Trails', 'Service'] as const) {
      const { status, json } = await rpc(app, 'QuoteIntent', daiToUsdc('TRUSTLESS'), prefix);
      expect(status).toBe(400);
      expect(json).toMatchObject({ code: 2000, cause: 'field=options.preference' });
      expect(json.msg).toContain('attester');
    }
    const sameChain = await quote({
      ...daiToUsdc('TRUSTLESS'),
      destinationChainId: alpha.entry.chainId,
      destinationTokenAddress: alpha.entry.tokens.USDC,
    });
    expect(sameChain.quote.routeProviders).toEqual(['UNISWAP_V2']);
  });
});
