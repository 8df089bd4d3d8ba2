/**
 * Property tests for the invariants of contracts-brief §3 on two real anvil chains (A = origin, B =
 * destination). Random action sequences (deposits of every kind, executes, fills, settlements with honest and
 * forged attestations, refunds of every kind, time warps on either chain) by random actors run against a
 * model that predicts each outcome: success with exact balance moves, or the exact custom error and args.
 * After every transaction and every action the invariants are checked (see receipt-checks.ts and
 * state-checks.ts); at the end of each run everything left is drained by permissionless calls (refund
 * liveness). A failure prints fast-check's seed and path: replay with `{ seed, path }` in FC_PARAMS.
 */
import fc from 'fast-check';
import { parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intentAccountAbi, intentFactoryAbi } from '../../../src/contracts/abis.generated.ts';
import { encodeDeploy, encodeExecute } from '../../../src/contracts/calldata.ts';
import { hashIntent } from '../../../src/contracts/hash-intent.ts';
import { predictIntentAddress } from '../../../src/contracts/predict-intent-address.ts';
import { expectRevert } from '../../harness/chain.ts';
import type { Action } from './actions.ts';
import { actionsArb } from './actions.ts';
import { allMutations, intentArb } from './intent-mutations.ts';
import { Model } from './model.ts';
import { checkReceipt, newLedger } from './receipt-checks.ts';
import { buildPropertyRoute, routeSpecArb } from './route-spec.ts';
import { resolveAction, runAction } from './run-action.ts';
import type { RunContext } from './run-context.ts';
import { checkState, readBalances } from './state-checks.ts';
import { maxOf, setLatest, startWorld, type World } from './world.ts';

/**
 * Runs of the stateful property. One run (reset, 2 routes, ≤ 28 actions, checks after each, drain) takes
 * about 0.6 s here, so 90 runs (~55 s) plus setup and the determinism property keep the whole file at
 * ~60–70 s on this 2-core machine, while reaching every outcome in REQUIRED_OUTCOMES many times over.
 */
const STATEFUL_RUNS = 90;
/**
 * Outcomes the stateful runs must all reach at least once (action:outcome); each is reached ~10+ times per
 * 90 runs, so a miss means the generator drifted. Rarer ones (RefundTooEarly, ~4 per 90) are left out.
 */
const REQUIRED_OUTCOMES = [
  'executeOrigin:ok',
  'executeOrigin:InsufficientDeposit',
  'executeOrigin:UnauthorizedExecutor',
  'executeOrigin:Expired',
  'fill:ok',
  'fill:FillDeadlinePassed',
  'executeDest:ok',
  'settle:ok',
  'settle:FillNotVerified',
  'orderRefund:ok', // mostly reached by the final drain
  'accountRefund:ok',
  'accountRefund:RefundNotAllowed',
  'executeOriginWrongChain:WrongChain',
];
/** Runs of the address-determinism property: each deploys one account and checks every single-field change. */
const DETERMINISM_RUNS = 30;
/** Settlement grace of the test settler: short, the runs warp across it. */
const GRACE_SECONDS = 120n;
/** Chain ids no other test file uses. */
const CHAIN_IDS = { a: 7_770_901, b: 7_770_902 };
/** Budget for the whole stateful property, shrinking included. */
const STATEFUL_TIMEOUT_MS = 600_000;

describe('contract invariants (fast-check, two anvil chains)', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(CHAIN_IDS, GRACE_SECONDS);
  });
  afterAll(async () => {
    await world?.stop();
  });

  it(
    'random action sequences keep conservation, committed payees, escrow solvency, settled ⇒ filled, execute rules, no dangling approvals, and end fully refundable',
    async () => {
      const tally = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(fc.tuple(routeSpecArb, routeSpecArb), actionsArb, async (specs, actions) => {
          await runScenario(world, tally, specs, actions);
        }),
        { numRuns: STATEFUL_RUNS },
      );
      // The runs must have reached every interesting outcome, or the invariants were checked on too little.
      console.info('outcomes over all runs', Object.fromEntries([...tally].sort()));
      for (const outcome of REQUIRED_OUTCOMES) expect(tally.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    },
    STATEFUL_TIMEOUT_MS,
  );

  it('address determinism: predict(h) is the deployed address and every single-field change changes h', async () => {
    await fc.assert(
      fc.asyncProperty(intentArb, async (intent) => {
        await world.reset();
        await checkDeterminism(world, intent);
      }),
      { numRuns: DETERMINISM_RUNS },
    );
  });
});

async function runScenario(
  world: World,
  tally: Map<string, number>,
  specs: [Parameters<typeof buildPropertyRoute>[2], Parameters<typeof buildPropertyRoute>[2]],
  actions: Action[],
): Promise<void> {
  const now = await world.reset();
  const routes = specs.map((spec, i) => buildPropertyRoute(world, i, spec, now));
  const model = new Model(world, routes);
  for (const chain of ['a', 'b'] as const) {
    for (const [key, value] of await readBalances(world, model, chain)) {
      const [, token, holder] = key.split(':') as [string, `0x${string}`, `0x${string}`];
      model.setBalance(chain, token, holder, value);
    }
  }
  const ledger = newLedger();
  const ctx: RunContext = {
    world,
    model,
    onReceipt: (chain, receipt) => checkReceipt(world, model, ledger, chain, receipt),
    outcomes: [],
  };
  const run = async (action: Action) => {
    ctx.outcomes.length = 0;
    await runAction(ctx, action);
    for (const outcome of ctx.outcomes) {
      tally.set(`${action.kind}:${outcome}`, (tally.get(`${action.kind}:${outcome}`) ?? 0) + 1);
    }
  };
  for (const generated of actions) {
    await run(resolveAction(ctx, generated));
    await checkState(world, model, ledger);
  }
  await drain(ctx, run);
  await checkState(world, model, ledger);
  for (const chain of ['a', 'b'] as const) {
    for (const { token, holder } of model.tracked(chain)) {
      if (model.isSystem(chain, holder)) {
        expect(model.balance(chain, token, holder), `${holder} still holds ${token} on ${chain}`).toBe(0n);
      }
    }
  }
}

/**
 * Refund liveness: once both clocks are past every deadline and every fill deadline + grace, a stranger's
 * permissionless calls return every remaining unit to the committed refund recipients.
 */
async function drain(ctx: RunContext, run: (action: Action) => Promise<void>): Promise<void> {
  const { world, model } = ctx;
  const latest = model.routes.reduce(
    (t, rm) => maxOf(t, maxOf(rm.route.deadline, rm.route.order.fillDeadline + world.grace)),
    0n,
  );
  for (const side of [world.a, world.b]) {
    if ((await side.chain.now()) < latest) await setLatest(side.chain, latest);
  }
  for (const rm of model.routes) {
    const route = rm.route.index as 0 | 1;
    const steps: Action[] = [
      { kind: 'orderRefund', route, actor: 'stranger' },
      { kind: 'accountRefund', route, where: 'originA', actor: 'stranger', tokens: ['usdc', 'dai'] },
      { kind: 'accountRefund', route, where: 'destB', actor: 'stranger', tokens: ['usdc', 'dai'] },
      { kind: 'accountRefund', route, where: 'originB', actor: 'stranger', tokens: ['usdc', 'dai'] },
    ];
    for (const step of steps) await run(step);
  }
}

async function checkDeterminism(world: World, intent: Parameters<typeof hashIntent>[0]): Promise<void> {
  const { chain, reader } = world.a;
  const { intentFactory: factory, intentAccountImplementation: implementation } = chain.contracts;
  const hash = hashIntent(intent, factory);
  const predicted = predictIntentAddress({ factory, implementation, intentHash: hash });
  const mutations = allMutations(intent);
  const mutatedHashes = mutations.map((m) => hashIntent(m.intent, factory));
  mutations.forEach((m, i) => {
    expect(mutatedHashes[i], `changing ${m.path} must change the hash`).not.toBe(hash);
  });
  expect(new Set(mutatedHashes).size, 'distinct changes give distinct hashes').toBe(mutations.length);

  const [onChainHash, onChainPredicted] = await Promise.all([
    reader.readContract({
      address: factory,
      abi: intentFactoryAbi,
      functionName: 'hashIntent',
      args: [intent],
    }),
    reader.readContract({ address: factory, abi: intentFactoryAbi, functionName: 'predict', args: [hash] }),
  ]);
  expect(onChainHash).toBe(hash);
  expect(onChainPredicted).toBe(predicted);

  const receipt = await chain.send('stranger', { to: factory, data: encodeDeploy(intent) });
  const [deployed] = parseEventLogs({
    abi: intentFactoryAbi,
    eventName: 'IntentDeployed',
    logs: receipt.logs,
  });
  expect(deployed?.args.account).toBe(predicted);
  const committed = await reader.readContract({
    address: predicted,
    abi: intentAccountAbi,
    functionName: 'intentHash',
  });
  expect(committed).toBe(hash);

  // The deployed account refuses each changed intent, naming the committed and the presented hash.
  await Promise.all(
    mutations.map(async (m, i) => {
      const args = await expectRevert(
        reader.call({ account: chain.accounts.relayer, to: predicted, data: encodeExecute(m.intent) }),
        'HashMismatch',
      );
      expect(args, `HashMismatch for ${m.path}`).toEqual([hash, mutatedHashes[i]]);
    }),
  );
}
