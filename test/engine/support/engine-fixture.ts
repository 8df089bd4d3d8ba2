/**
 * Shared set-up for engine tests: a devnet, a store on a fresh database, plans built by
 * buildExecutionPlan, intents inserted as COMMITTED with their plan and UNKNOWN receipt rows (as the
 * quote service does), user deposits, and engines started and stopped on the same store.
 */
import { randomBytes } from 'node:crypto';
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint256,
  parseUnits,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { signingAccount } from '../../../src/chains/signing-account.ts';
import { createIntentEngine, type IntentEngineOptions } from '../../../src/engine/create-intent-engine.ts';
import type { IntentEngine } from '../../../src/engine/types.ts';
import { buildExecutionPlan } from '../../../src/intents/plan/build-execution-plan.ts';
import type { ExecutionPlan, PlanDeps, PlanRequest } from '../../../src/intents/plan/types.ts';
import { encodePlan } from '../../../src/intents/plan-codec.ts';
import type { ChainConfig } from '../../../src/internal/config-types.ts';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import { createStore } from '../../../src/store/create-store.ts';
import type { IntentRecord, IntentStatus, Store } from '../../../src/store/types.ts';
import { createTestDatabase, type Dialect, type TestDatabase } from '../../harness/database.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../harness/devnet.ts';
import { devnetPlanDeps } from '../../intents/plan/support/devnet-plan-deps.ts';

/** Fast polling for tests: the devnet mines instantly, so the defaults would only add idle time. */
const TEST_ENGINE_OPTIONS = { stepPollIntervalMs: 20, depositScanIntervalMs: 100 } as const;

export interface EngineFixture {
  net: TestDevnet;
  store: Store;
  database: TestDatabase;
  projectId: number;
  planDeps: PlanDeps;
  chain(chainId: number | bigint): TestDevnetChain;
  /**
   * `chains` replaces the devnet's chain configs for this engine (a per-chain setting under test); `store`
   * is another store on the same database (another worker process's pool).
   */
  startEngine(options?: {
    chains?: ChainConfig[];
    engine?: IntentEngineOptions;
    store?: Store;
  }): Promise<IntentEngine>;
  /** Builds a plan and stores the intent as QUOTED with three UNKNOWN receipt rows (QuoteIntent's store). */
  quote(request: PlanRequest): Promise<{ intentId: string; plan: ExecutionPlan }>;
  /** `quote`, then COMMITTED. */
  commit(request: PlanRequest): Promise<{ intentId: string; plan: ExecutionPlan }>;
  /** The user sends `amount` of the origin deposit token to the origin intent address. */
  deposit(plan: ExecutionPlan, amount?: bigint): Promise<Hex>;
  waitForStatus(intentId: string, statuses: IntentStatus[]): Promise<IntentRecord>;
  waitForStep(intentId: string, step: string, state?: 'done' | 'failed'): Promise<void>;
  stop(): Promise<void>;
}

export const freshAddress = (): Address => privateKeyToAddress(generatePrivateKey());

/** `amount` (whole USDC) from the devnet user on `from` to a fresh recipient on `to`, USDC to USDC. */
export function usdcRequest(
  net: TestDevnet,
  from: TestDevnetChain,
  to: TestDevnetChain,
  amount: string,
  recipient: Address = freshAddress(),
): PlanRequest {
  return {
    ownerAddress: net.devnet.accounts.user.address,
    originChainId: from.entry.chainId,
    originTokenAddress: from.entry.tokens.USDC!,
    destinationChainId: to.entry.chainId,
    destinationTokenAddress: to.entry.tokens.USDC!,
    destinationToAddress: recipient,
    originTokenAmount: parseUnits(amount, 6),
  };
}

/**
 * The solver's one approval of `chain`'s destination settler for its USDC, mined now: a test that mines
 * blocks by hand would otherwise find it in the pool ahead of the fill.
 */
export async function approveSettlerForSolver(chain: TestDevnetChain): Promise<void> {
  const hash = await chain.walletFor('solver').writeContract({
    address: chain.entry.tokens.USDC! as Address,
    abi: erc20Abi,
    functionName: 'approve',
    args: [chain.entry.contracts.destinationSettler as Address, maxUint256],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startEngineFixture(dialect: Dialect = 'sqlite'): Promise<EngineFixture> {
  const [net, database] = await Promise.all([startTestDevnet(), createTestDatabase(dialect)]);
  const store = await createStore({ ...database.options, log: createSilentLogger() });
  const project = await store.projects.ensure('engine-test');
  const accounts = net.devnet.accounts;
  const chain = (chainId: number | bigint) => {
    const found = net.chains.find((c) => c.entry.chainId === Number(chainId));
    if (!found) throw new Error(`no devnet chain ${chainId}`);
    return found;
  };
  const planDeps: PlanDeps = devnetPlanDeps(net);
  const engines: IntentEngine[] = [];

  async function quote(request: PlanRequest) {
    const plan = await buildExecutionPlan(request, planDeps);
    const intentId = `0x${randomBytes(32).toString('hex')}`;
    const o = plan.origin.intent;
    const d = plan.destination?.intent;
    await store.intents.insert({
      intentId,
      projectId: project.id,
      ownerAddress: request.ownerAddress,
      originChainId: Number(o.chainId),
      destinationChainId: request.destinationChainId,
      originIntentAddress: plan.origin.address,
      destinationIntentAddress: plan.destination?.address ?? plan.origin.address,
      originTokenAddress: request.originTokenAddress,
      originTokenAmount: plan.amounts.fromAmount,
      destinationTokenAddress: request.destinationTokenAddress,
      destinationTokenAmount: plan.amounts.toAmount,
      intent: { intentId },
      planJson: encodePlan(plan),
      quoteExpiresAt: new Date(Date.now() + 300_000),
    });
    const rows = [
      { kind: 'deposit' as const, chainId: Number(o.chainId) },
      { kind: 'origin' as const, chainId: Number(o.chainId) },
      { kind: 'destination' as const, chainId: Number(d?.chainId ?? o.chainId) },
    ];
    for (const row of rows) await store.transactions.upsert({ intentId, ...row, status: 'UNKNOWN' });
    return { intentId, plan };
  }

  return {
    net,
    store,
    database,
    projectId: project.id,
    planDeps,
    chain,
    async startEngine(options = {}) {
      const engine = createIntentEngine({
        store: options.store ?? store,
        chains: options.chains ?? net.chainConfigs,
        clients: new Map(net.chains.map((c) => [c.entry.chainId, c.publicClient])),
        keys: {
          relayer: signingAccount(accounts.relayer!.privateKey),
          solver: signingAccount(accounts.solver!.privateKey),
          attester: signingAccount(accounts.attester!.privateKey),
        },
        log: createSilentLogger(),
        options: { ...TEST_ENGINE_OPTIONS, ...options.engine },
      });
      await engine.start();
      engines.push(engine);
      return engine;
    },
    quote,
    async commit(request) {
      const quoted = await quote(request);
      await store.intents.updateStatus({
        intentId: quoted.intentId,
        to: 'COMMITTED',
        committedAt: new Date(),
      });
      return quoted;
    },
    async deposit(plan, amount) {
      const o = plan.origin.intent;
      const wallet = chain(o.chainId).walletFor('user');
      const value = amount ?? o.depositAmount;
      const hash =
        o.depositToken === zeroAddress
          ? await wallet.sendTransaction({ to: plan.origin.address, value })
          : await wallet.sendTransaction({
              to: o.depositToken,
              data: encodeFunctionData({
                abi: erc20Abi,
                functionName: 'transfer',
                args: [plan.origin.address, value],
              }),
            });
      await chain(o.chainId).publicClient.waitForTransactionReceipt({ hash });
      return hash;
    },
    async waitForStatus(intentId, statuses) {
      for (;;) {
        const intent = await store.intents.getForEngine(intentId);
        if (intent && statuses.includes(intent.status)) return intent;
        await sleep(25);
      }
    },
    async waitForStep(intentId, step, state = 'done') {
      for (;;) {
        const steps = await store.steps.list(intentId);
        if (steps.some((s) => s.step === step && s.state === state)) return;
        await sleep(25);
      }
    },
    async stop() {
      await Promise.all(engines.map((e) => e.stop()));
      await store.close();
      await Promise.all([net.stop(), database.drop()]);
    },
  };
}
