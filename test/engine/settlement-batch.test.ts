/**
 * Settlement in batches (src/engine/settlement-batcher.ts): the orders of intents settled within one window
 * share one relayer `settleBatch` transaction and the solver is repaid for each; a batch that cannot be
 * sent fails each of its orders with an error the settle step does not retry in the batch (it then settles
 * alone), and nothing is signed for it.
 */
import { type Address, erc20Abi, type Hex, parseEventLogs, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransactionSender } from '../../src/chains/create-transaction-sender.ts';
import { SimulationRevertedError } from '../../src/chains/errors.ts';
import { originSettlerAbi } from '../../src/contracts/abis.generated.ts';
import { encodeFillProof } from '../../src/contracts/calldata.ts';
import { computeOrderId } from '../../src/contracts/order-id.ts';
import type { OrderData } from '../../src/contracts/types.ts';
import { toLocalAccount } from '../../src/devnet/accounts.ts';
import { isRetryable } from '../../src/engine/is-retryable.ts';
import { createSettlementBatcher } from '../../src/engine/settlement-batcher.ts';
import type { ExecutionPlan } from '../../src/intents/plan/types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { type EngineFixture, freshAddress, startEngineFixture } from './support/engine-fixture.ts';

const usdc = (n: string) => parseUnits(n, 6);
/** Long enough that intents started one after another all land in the first batch (ms). */
const WIDE_WINDOW_MS = 3_000;

let f: EngineFixture;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;

beforeAll(async () => {
  f = await startEngineFixture('sqlite');
  [alpha, beta] = f.net.chains as [TestDevnetChain, TestDevnetChain];
}, 120_000);
afterAll(async () => {
  await f?.stop();
});

const settler = () => alpha.entry.contracts.originSettler as Address;
const orderIdOf = (order: OrderData) => computeOrderId(order, BigInt(alpha.entry.chainId), settler());
const usdcOnAlpha = (holder: Address) =>
  alpha.publicClient.readContract({
    address: alpha.entry.tokens.USDC! as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });

async function settledIn(plan: ExecutionPlan): Promise<Hex> {
  const [settled] = await alpha.publicClient.getContractEvents({
    address: settler(),
    abi: originSettlerAbi,
    eventName: 'OrderSettled',
    args: { orderId: orderIdOf(plan.order!) },
    fromBlock: 0n,
  });
  if (!settled) throw new Error('the order was not settled');
  return settled.transactionHash;
}

describe('settlement batches', () => {
  it("settles three intents' orders in one relayer settleBatch and repays the solver for each", async () => {
    const accounts = f.net.devnet.accounts;
    const solver = accounts.solver!.address;
    const engine = await f.startEngine({ engine: { settleBatchWindowMs: WIDE_WINDOW_MS } });
    const committed = [];
    for (const amount of ['30', '40', '50']) {
      committed.push(
        await f.commit({
          ownerAddress: accounts.user.address,
          originChainId: alpha.entry.chainId,
          originTokenAddress: alpha.entry.tokens.USDC!,
          destinationChainId: beta.entry.chainId,
          destinationTokenAddress: beta.entry.tokens.USDC!,
          destinationToAddress: freshAddress(),
          originTokenAmount: usdc(amount),
          serviceFeeBps: 25n,
        }),
      );
    }
    const solverBefore = await usdcOnAlpha(solver);
    for (const { intentId, plan } of committed) {
      await engine.requestExecution({ intentId, depositTransactionHash: await f.deposit(plan) });
    }
    for (const { intentId } of committed) await f.waitForStep(intentId, 'settle');
    await engine.stop();

    const hashes = await Promise.all(committed.map(({ plan }) => settledIn(plan)));
    expect(new Set(hashes).size).toBe(1);
    const receipt = await alpha.publicClient.getTransactionReceipt({ hash: hashes[0]! });
    expect(receipt.from.toLowerCase()).toBe(accounts.relayer!.address.toLowerCase());
    const settled = parseEventLogs({ abi: originSettlerAbi, eventName: 'OrderSettled', logs: receipt.logs });
    expect(settled.map((e) => e.args.orderId).sort()).toEqual(
      committed.map(({ plan }) => orderIdOf(plan.order!)).sort(),
    );
    const owed = committed.reduce((sum, { plan }) => sum + plan.order!.inputAmount, 0n);
    expect((await usdcOnAlpha(solver)) - solverBefore).toBe(owed);
    const row = await f.store.signedTransactions.findByHash(hashes[0]!);
    expect([row?.purpose, row?.status, row?.intentId ?? null]).toEqual(['settle-batch', 'mined', null]);
  }, 60_000);

  it('a batch that cannot be sent fails each of its orders, not to be retried in a batch, and signs nothing', async () => {
    const relayer = toLocalAccount(f.net.devnet.accounts.relayer!);
    const sender = createTransactionSender({
      journal: f.store.signedTransactions,
      clients: new Map(f.net.chains.map((c) => [c.entry.chainId, c.publicClient])),
      confirmations: () => 1,
      log: createSilentLogger(),
    });
    const batcher = createSettlementBatcher({
      store: f.store,
      sender,
      relayer,
      log: createSilentLogger(),
      windowMs: 50,
    });
    const nonceBefore = await alpha.publicClient.getTransactionCount({ address: relayer.address });
    // Orders that were never opened: settleBatch reverts InvalidStatus(orderId, Open, None) in simulation.
    const bogus = (n: number) => {
      const orderData: OrderData = {
        depositor: freshAddress(),
        refundRecipient: freshAddress(),
        inputToken: alpha.entry.tokens.USDC! as Address,
        inputAmount: BigInt(n),
        destChainId: BigInt(beta.entry.chainId),
        destSettler: beta.entry.contracts.destinationSettler as Address,
        outputToken: beta.entry.tokens.USDC! as Address,
        outputAmount: BigInt(n),
        recipient: freshAddress(),
        fillDeadline: 2n ** 40n,
        nonce: `0x${n.toString(16).padStart(64, '0')}`,
      };
      return batcher.settle({
        chainId: alpha.entry.chainId,
        settler: settler(),
        orderId: orderIdOf(orderData),
        settlement: {
          orderData,
          repaymentAddr: relayer.address,
          proof: encodeFillProof(relayer.address, '0x'),
        },
        intentId: `bogus-${n}`,
      });
    };
    const outcomes = await Promise.allSettled([bogus(1), bogus(2)]);

    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(SimulationRevertedError);
      expect(isRetryable(reason)).toBe(false);
    }
    expect(await alpha.publicClient.getTransactionCount({ address: relayer.address })).toBe(nonceBefore);
    const unconfirmed = await f.store.signedTransactions.listUnconfirmed({ chainId: alpha.entry.chainId });
    expect(unconfirmed.filter((t) => t.purpose === 'settle-batch')).toEqual([]);
  }, 60_000);
});
