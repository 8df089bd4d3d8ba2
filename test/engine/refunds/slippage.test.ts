/**
 * Failures after the deposit that must return the money: the pool price moves after the quote (a large swap
 * by another account) so a swap's committed minimum cannot be met, on the origin swap or on the destination
 * swap, and a destination call that reverts. Balances are checked on both chains, with the receipt. The swaps
 * are pinned to UNISWAP_V2 (whose pair the price move hits); test/routing/slippage-refund.test.ts does the
 * same through V3 pools.
 */
import { type Address, encodeFunctionData, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accruingVaultAbi } from '../../../src/contracts/abis.generated.ts';
import { uniswapV2RouterAbi } from '../../../src/devnet/abis.ts';
import { AMOUNT_PLACEHOLDER } from '../../../src/intents/plan/constants.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { freshAddress } from '../support/engine-fixture.ts';
import {
  expectDestinationSlippageRefund,
  expectOriginSlippageRefund,
  type Stable,
  sellStable,
  stableToken,
} from './slippage-scenarios.ts';
import { type RefundFixture, startRefundFixture } from './support.ts';

/** A fifth of the devnet's 10M/10M stable pool: moves its price far beyond any quote's slippage. */
const PRICE_MOVING_SWAP = 2_000_000n;

let f: RefundFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;
let feeCollector: Address;

beforeAll(async () => {
  f = await startRefundFixture();
  [alpha, beta, gamma] = f.net.chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  user = f.net.devnet.accounts.user.address;
  feeCollector = f.net.devnet.accounts.feeCollector!.address;
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

const token = stableToken;

/** Another account (the deployer) sells `sell` into the chain's USDC/DAI V2 pair. */
async function movePrice(chain: TestDevnetChain, sell: Stable): Promise<void> {
  const config = f.net.chainConfigs.find((c) => c.chainId === chain.entry.chainId)!;
  await sellStable(chain, sell, PRICE_MOVING_SWAP.toString(), config.contracts.uniswapV2Router!, (t) =>
    encodeFunctionData({
      abi: uniswapV2RouterAbi,
      functionName: 'swapExactTokensForTokens',
      args: [t.amount, 0n, [t.from, t.to], t.me, t.deadline],
    }),
  );
}

describe('slippage and destination failures refund on the devnet', () => {
  it('the origin swap misses its minimum: origin FAILED (not retried), the deposit returned after the deadline', async () => {
    const { rows } = await expectOriginSlippageRefund(f, {
      alpha,
      beta,
      request: { originTokenAmount: parseUnits('100', 18), swapProvider: 'UNISWAP_V2' },
      movePrice: () => movePrice(alpha, 'DAI'), // DAI now buys far less USDC than quoted
      failure: /INSUFFICIENT_OUTPUT_AMOUNT/,
      whileExecuting: async (intentId) => {
        const originStep = (await f.store.steps.list(intentId)).find((s) => s.step === 'origin');
        expect(originStep?.attempts).toBe(1); // classified as not retryable
        expect((await f.store.intents.getForEngine(intentId))?.status).toBe('EXECUTING');
      },
      refundReason:
        /^returned 100 DAI to the owner on Switchyard Alpha: the origin was not executed \(.*INSUFFICIENT_OUTPUT_AMOUNT.*\)$/,
    });
    expect(rows.deposit?.status).toBe('SUCCEEDED');
  }, 60_000);

  it('the destination swap misses its minimum: the account refunds the owner on the destination in the same transaction', async () => {
    const { intentId, rows } = await expectDestinationSlippageRefund(f, {
      alpha,
      beta,
      request: { originTokenAmount: parseUnits('80', 6), swapProvider: 'UNISWAP_V2' },
      movePrice: () => movePrice(beta, 'USDC'), // USDC now buys far less DAI than quoted
      destinationReason:
        /^destination calls failed: .*INSUFFICIENT_OUTPUT_AMOUNT.*; the owner was refunded on the destination chain in the same transaction$/,
    });
    expect(rows.refund?.chainId).toBe(beta.entry.chainId);
    const wait = await f.waitReceipt(intentId);
    expect(wait.done).toBe(true);
    expect(wait.receiptStates).toEqual(['SUCCEEDED', 'SUCCEEDED', 'FAILED', 'SUCCEEDED']);
  }, 60_000);

  it('a destination call that reverts: REFUNDED on the destination, the origin paid once, the solver repaid', async () => {
    await f.withRefundEngine(async (engine) => {
      const vault = gamma.entry.contracts.usdcVault! as Address;
      const solver = f.net.devnet.accounts.solver!.address;
      // deposit() without an approval: the vault's transferFrom fails, so the destination calls revert.
      const data = encodeFunctionData({
        abi: accruingVaultAbi,
        functionName: 'deposit',
        args: [BigInt(AMOUNT_PLACEHOLDER), freshAddress()],
      });
      const { intentId, plan } = await f.commit({
        ownerAddress: user,
        originChainId: alpha.entry.chainId,
        originTokenAddress: token(alpha, 'USDC'),
        destinationChainId: gamma.entry.chainId,
        destinationTokenAddress: token(gamma, 'USDC'),
        destinationToAddress: vault,
        destinationCallData: data,
        originTokenAmount: parseUnits('50', 6),
        serviceFeeBps: 25n,
      });
      const userA = await f.balance(alpha, token(alpha, 'USDC'), user);
      const feeA = await f.balance(alpha, token(alpha, 'USDC'), feeCollector);
      const solverA = await f.balance(alpha, token(alpha, 'USDC'), solver);
      const userG = await f.balance(gamma, token(gamma, 'USDC'), user);
      const vaultG = await f.balance(gamma, token(gamma, 'USDC'), vault);
      await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
      expect((await f.waitForStatus(intentId, ['REFUNDED', 'FAILED', 'SUCCEEDED'])).status).toBe('REFUNDED');
      await f.waitForStep(intentId, 'settle');
      expect(await f.balance(alpha, token(alpha, 'USDC'), user)).toBe(
        userA - plan.origin.intent.depositAmount,
      );
      expect(await f.balance(alpha, token(alpha, 'USDC'), feeCollector)).toBe(feeA + plan.fees.collectorFee);
      expect(await f.balance(alpha, token(alpha, 'USDC'), solver)).toBe(solverA + plan.order!.inputAmount);
      expect(await f.balance(gamma, token(gamma, 'USDC'), user)).toBe(userG + plan.order!.outputAmount);
      expect(await f.balance(gamma, token(gamma, 'USDC'), vault)).toBe(vaultG);
      const rows = await f.rowsOf(intentId);
      expect(rows.destination?.statusReason).toMatch(
        /^destination calls failed: CallFailed\(call \d+: ERC20InsufficientAllowance\(/,
      );
      await f.expectMinedRow(rows.refund);
      expect(rows.refund?.txnHash).toBe(rows.destination?.txnHash);
      expect(rows.refund?.tokenAmount).toBe(plan.destination!.intent.depositAmount);
    });
  }, 60_000);
});
