/**
 * Every route kind end to end through the official client on /rpc/Trails: a real devnet, the real engine,
 * the real API on a port, SQLite. Each test runs one intent from quote to SUCCEEDED; support/run-intent.ts
 * checks the receipt (hashes mined on their chains, mined times, summary, bigints) and the balances on-chain
 * (recipient ≥ toAmountMin, the user paid the deposit, the fee collector got the fee, accounts empty). The
 * test bodies add what is special to their route.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, encodeFunctionData, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accruingVaultAbi } from '../../src/contracts/abis.generated.ts';
import { AMOUNT_PLACEHOLDER } from '../../src/intents/plan/constants.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { balanceOf, type E2eService, startE2eService } from './support/e2e-fixture.ts';
import { dai, freshAddress, quoteRequest, tokenOf, usdc } from './support/requests.ts';
import { runIntent } from './support/run-intent.ts';

/** One intent on the devnet takes ~2 s; this leaves room on a loaded 2-core machine. */
const INTENT_TIMEOUT_MS = 60_000;

let svc: E2eService;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  svc = await startE2eService();
  api = new TrailsApi(svc.key, { hostname: svc.url });
  [alpha, beta, gamma] = svc.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = svc.net.devnet.accounts.user.address;
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

const route = (
  from: TestDevnetChain,
  fromToken: string,
  to: TestDevnetChain,
  toToken: string,
  amounts: { in?: bigint; out?: bigint },
) =>
  quoteRequest({
    owner: user,
    from,
    fromToken,
    to,
    toToken,
    recipient: freshAddress(),
    amountIn: amounts.in,
    amountOut: amounts.out,
  });

describe('same chain', () => {
  it(
    'transfers USDC on alpha: no provider leg, origin transaction does it all',
    async () => {
      const { intent, receipt, received } = await runIntent(
        svc,
        api,
        route(alpha, 'USDC', alpha, 'USDC', { in: usdc('100') }),
      );
      expect(intent.quote.routeProviders).toEqual([]);
      expect(received).toBe(usdc('100') - intent.fees.collectorFeeTotal);
      expect(receipt.destinationTransaction?.txnHash).toBe(receipt.originTransaction.txnHash);
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'swaps USDC for DAI on alpha',
    async () => {
      const { intent, received } = await runIntent(
        svc,
        api,
        route(alpha, 'USDC', alpha, 'DAI', { in: usdc('250') }),
      );
      expect(intent.quote.routeProviders.length).toBeGreaterThan(0);
      expect(received).toBeGreaterThan(dai('200')); // ~1 USD per token, minus fees and impact
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'takes native ETH in and delivers DAI (wrap, then swap)',
    async () => {
      const { received } = await runIntent(
        svc,
        api,
        route(alpha, 'ETH', alpha, 'DAI', { in: parseEther('0.1') }),
      );
      expect(received).toBeGreaterThan(0n);
    },
    INTENT_TIMEOUT_MS,
  );
});

describe('cross chain', () => {
  it(
    'bridges USDC alpha → beta, ExecuteIntent sent before the deposit is mined',
    async () => {
      const req = route(alpha, 'USDC', beta, 'USDC', { in: usdc('100') });
      const { intent, received } = await runIntent(svc, api, req, { executeBeforeMined: true });
      // No swap on either side: exactly the quoted amount arrives, the deposit less the fees.
      expect(received).toBe(intent.quote.toAmount);
      expect(received).toBe(usdc('100') - intent.fees.totalFeeAmount);
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'swaps on the origin: DAI on alpha → USDC on beta',
    async () => {
      const { received } = await runIntent(svc, api, route(alpha, 'DAI', beta, 'USDC', { in: dai('300') }));
      expect(received).toBeGreaterThan(usdc('250'));
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'swaps on the destination: USDC on alpha → DAI on beta',
    async () => {
      const { received } = await runIntent(svc, api, route(alpha, 'USDC', beta, 'DAI', { in: usdc('150') }));
      expect(received).toBeGreaterThan(dai('120'));
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'swaps on both ends: DAI on gamma → WETH on alpha',
    async () => {
      const { intent, received } = await runIntent(
        svc,
        api,
        route(gamma, 'DAI', alpha, 'WETH', { in: dai('600') }),
      );
      expect(intent.quote.routeProviders.length).toBeGreaterThanOrEqual(2);
      expect(received).toBeGreaterThan(0n);
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'takes native ETH in: ETH on alpha → USDC on beta',
    async () => {
      const { received } = await runIntent(
        svc,
        api,
        route(alpha, 'ETH', beta, 'USDC', { in: parseEther('0.2') }),
      );
      expect(received).toBeGreaterThan(0n);
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'delivers native ETH out: USDC on alpha → ETH on beta (unwrapped to the recipient)',
    async () => {
      const req = route(alpha, 'USDC', beta, 'ETH', { in: usdc('500') });
      const { received } = await runIntent(svc, api, req);
      expect(received).toBeGreaterThan(0n);
      expect(await balanceOf(beta, tokenOf(beta, 'WETH'), req.destinationToAddress as Address)).toBe(0n);
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'EXACT_OUTPUT: 120 DAI on beta for at most 1000 USDC on alpha',
    async () => {
      const req = route(alpha, 'USDC', beta, 'DAI', { in: usdc('1000'), out: dai('120') });
      const { intent, received, receipt } = await runIntent(svc, api, req);
      expect(received).toBeGreaterThanOrEqual(dai('120'));
      expect(intent.depositTransaction.amount).toBeLessThan(usdc('1000'));
      expect(receipt.summary.tradeType).toBe('EXACT_OUTPUT');
    },
    INTENT_TIMEOUT_MS,
  );

  it(
    'calls a vault on the destination: DAI on alpha → USDC deposited into the gamma vault for a receiver',
    async () => {
      const vault = gamma.entry.contracts.usdcVault as Address;
      const receiver = freshAddress();
      // The amount is the client's placeholder: the destination call fills in what actually arrived.
      const data = encodeFunctionData({
        abi: accruingVaultAbi,
        functionName: 'deposit',
        args: [BigInt(AMOUNT_PLACEHOLDER), receiver],
      });
      const req = quoteRequest({
        owner: user,
        from: alpha,
        fromToken: 'DAI',
        to: gamma,
        toToken: 'USDC',
        recipient: vault,
        amountIn: dai('200'),
        extra: {
          destinationCallData: data,
          destinationApproveAddress: vault,
          destinationCallValue: 0n,
        } as never,
      });
      const { received, receipt } = await runIntent(svc, api, req);
      expect(receipt.summary.destinationHasCallData).toBe(true);
      const shares = await gamma.publicClient.readContract({
        address: vault,
        abi: accruingVaultAbi,
        functionName: 'balanceOf',
        args: [receiver],
      });
      expect(shares).toBeGreaterThan(0n);
      const assets = await gamma.publicClient.readContract({
        address: vault,
        abi: accruingVaultAbi,
        functionName: 'convertToAssets',
        args: [shares],
      });
      // The receiver's shares are worth what the vault received (rounding down by at most a unit).
      expect(assets).toBeGreaterThanOrEqual(received - 1n);
    },
    INTENT_TIMEOUT_MS,
  );
});
