/**
 * The rehearsal: Switchyard on two chains that no Switchyard code set up, by the book. Two plain anvil
 * processes with chain ids no one uses, fresh keys funded with ETH only, WETH9 from the Uniswap npm artifact
 * as the one token on each; the solver wraps ETH for its inventory. Then the commands of docs/operations.md,
 * taken from the page itself (its blocks marked `rehearsal`) and run as child processes with the page's
 * variables filled in: deploy (planned first), config init, doctor, keys create, serve. One WETH moves from
 * chain A to chain B through the official client. Also: a second deploy sends nothing, a quote larger than
 * the solver's inventory is refused with the inventory error, and doctor fails naming the solver and the
 * token once the solver holds none on B.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type IntentReceipt, TrailsApi, type TransactionStatus } from '@0xtrails/api';
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hex,
  http,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSwitchyardDeployment } from '../../src/contracts/deployment-plan.ts';
import { findCodeProblems } from '../../src/contracts/find-code-problems.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../../src/intents/plan/constants.ts';
import { weth9Abi } from '../../src/providers/abis.ts';
import { freePort } from '../harness/free-port.ts';
import { extractRehearsalBlocks, variablesOf } from './support/doc-blocks.ts';
import { type FreshChain, startFreshChain } from './support/fresh-chain.ts';
import {
  type BlockEnv,
  type RunningBlock,
  runDocBlock,
  startDocBlock,
  switchyardOnPath,
} from './support/run-doc-block.ts';

const GUIDE = path.resolve(import.meta.dirname, '../../docs/operations.md');
/** The blocks the guide marks, in the order an operator runs them. */
const BLOCKS = ['plan', 'deploy', 'config-init', 'doctor', 'keys-create', 'serve'] as const;
/** Chain ids no public network and not the devnet (7770001–3) uses. */
const CHAIN_A = 616_001;
const CHAIN_B = 616_002;
const ONE_WETH = parseEther('1');
/** The solver's inventory: plenty on the destination B, a little on A so that every chain it serves holds some. */
const SOLVER_WETH: Record<number, bigint> = { [CHAIN_A]: parseEther('1'), [CHAIN_B]: parseEther('10') };
/** An intent through serve's production timings on automine chains: seconds; room for a loaded machine (ms). */
const INTENT_TIMEOUT_MS = 120_000;

const key = {
  deployer: generatePrivateKey(),
  relayer: generatePrivateKey(),
  solver: generatePrivateKey(),
  attester: generatePrivateKey(),
  user: generatePrivateKey(),
};
const addressOf = (k: Hex) => privateKeyToAccount(k).address;
const feeCollector = addressOf(generatePrivateKey());

const blocks = extractRehearsalBlocks(await readFile(GUIDE, 'utf8'));
let a: FreshChain;
let b: FreshChain;
let weth: Record<number, Address>;
let env: BlockEnv;
let serve: RunningBlock | undefined;
let api: TrailsApi;
let workDir: string;

const block = (name: (typeof BLOCKS)[number]) => runDocBlock(blocks.get(name)!, env);
const chainOf = (chainId: number) => (chainId === CHAIN_A ? a : b);

async function wethBalance(chainId: number, holder: Address): Promise<bigint> {
  return chainOf(chainId).client.readContract({
    address: weth[chainId]!,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
}

async function wrap(chainId: number, holderKey: Hex, wei: bigint) {
  const data = encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' });
  await chainOf(chainId).send(holderKey, { to: weth[chainId]!, data, value: wei });
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'sw-rehearsal-'));
  [a, b] = await Promise.all([startFreshChain(CHAIN_A), startFreshChain(CHAIN_B)]);
  weth = {};
  for (const chain of [a, b]) {
    for (const k of [key.deployer, key.relayer, key.user]) await chain.fund(addressOf(k), parseEther('10'));
    await chain.fund(addressOf(key.solver), parseEther('50'));
    weth[chain.chainId] = await chain.deployWeth9();
    await wrap(chain.chainId, key.solver, SOLVER_WETH[chain.chainId]!);
  }
  await wrap(CHAIN_A, key.user, parseEther('2'));
  env = {
    cwd: workDir,
    binDir: await switchyardOnPath(),
    vars: {
      RPC_A: a.rpcUrl,
      RPC_B: b.rpcUrl,
      CHAIN_A: String(CHAIN_A),
      CHAIN_B: String(CHAIN_B),
      WETH_A: weth[CHAIN_A]!,
      WETH_B: weth[CHAIN_B]!,
      SWITCHYARD_DEPLOYER_KEY: key.deployer,
      SWITCHYARD_ATTESTER_ADDRESS: addressOf(key.attester),
      SWITCHYARD_RELAYER_KEY: key.relayer,
      SWITCHYARD_SOLVER_KEY: key.solver,
      SWITCHYARD_ATTESTER_KEY: key.attester,
      SWITCHYARD_FEE_COLLECTOR: feeCollector,
      SWITCHYARD_DATA_DIR: path.join(workDir, 'data'),
      PORT: String(await freePort()),
    },
  };
}, 120_000);

afterAll(async () => {
  await serve?.stop();
  await Promise.all([a, b].map((c) => c?.stop()));
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('rehearsal: docs/operations.md on two fresh chains', () => {
  it('marks exactly the blocks the rehearsal runs, reading only variables it sets', () => {
    expect([...blocks.keys()]).toEqual([...BLOCKS]);
    for (const [name, script] of blocks) {
      const unknown = variablesOf(script).filter((v) => !(v in env.vars));
      expect(unknown, `block '${name}' reads variables the rehearsal does not set`).toEqual([]);
    }
  });

  it('deploys from the plan: the same addresses on both chains, this build’s code at each', async () => {
    const planned = await block('plan');
    expect({ code: planned.code, stderr: planned.code === 0 ? '' : planned.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    expect(planned.stdout).toContain(`chain ${CHAIN_A} (http://127.0.0.1:`);
    expect(planned.stdout).toMatch(/4 to deploy, \d+ gas/);
    expect(await a.client.getTransactionCount({ address: addressOf(key.deployer) })).toBe(0);

    const deployed = await block('deploy');
    expect({ code: deployed.code, stderr: deployed.code === 0 ? '' : deployed.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    const { contracts } = planSwitchyardDeployment({
      attester: addressOf(key.attester),
      graceSeconds: DEFAULT_SETTLEMENT_GRACE_SECONDS,
    });
    for (const address of Object.values(contracts)) expect(deployed.stdout).toContain(address);
    for (const chain of [a, b]) {
      expect(await findCodeProblems(chain.client, contracts)).toEqual([]);
      expect(await chain.client.getTransactionCount({ address: addressOf(key.deployer) })).toBe(4);
    }
  }, 180_000);

  it('writes the config, passes doctor, creates an access key and serves', async () => {
    const init = await block('config-init');
    expect({ code: init.code, stderr: init.code === 0 ? '' : init.stderr }).toEqual({ code: 0, stderr: '' });
    const written = await readFile(path.join(workDir, 'switchyard.json'), 'utf8');
    for (const secret of Object.values(key)) expect(written).not.toContain(secret.slice(2));
    // The page's fee caps and the solver's low-water mark for WETH on B (2 WETH, in base units).
    const [onA, onB] = JSON.parse(written).chains;
    expect([onA.maxFeePerGasGwei, onB.maxFeePerGasGwei]).toEqual(['100', '100']);
    expect(onB.tokens.find((t: { symbol: string }) => t.symbol === 'WETH').lowWaterMark).toBe(
      parseEther('2').toString(),
    );

    const doctor = await block('doctor');
    expect(doctor.stdout).not.toMatch(/^(FAIL|WARN)/m);
    expect(doctor.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ ok, 0 warn, 0 fail$/);
    expect(doctor.code).toBe(0);

    const keys = await block('keys-create');
    expect(keys.code).toBe(0);
    const accessKey = keys.stdout.trim();
    expect(accessKey).toMatch(/^sy_/);

    serve = await startDocBlock(blocks.get('serve')!, env, /Switchyard API on (\S+)/);
    api = new TrailsApi(accessKey, { hostname: serve.match[1]! });
  }, 180_000);

  it(
    'moves 1 WETH from chain A to chain B with the official client: SUCCEEDED, at least toAmountMin delivered',
    async () => {
      const user = addressOf(key.user);
      const before = await wethBalance(CHAIN_B, user);
      const { intent } = await api.quoteIntent({
        ownerAddress: user,
        originChainId: CHAIN_A,
        originTokenAddress: weth[CHAIN_A]!,
        originTokenAmount: ONE_WETH,
        destinationChainId: CHAIN_B,
        destinationTokenAddress: weth[CHAIN_B]!,
        destinationToAddress: user,
        destinationTokenAmount: 0n,
        tradeType: 'EXACT_INPUT' as never,
      });
      const { intentId } = await api.commitIntent({ intent });
      const raw = intent.depositTransaction as unknown as { to: Address; data: Hex; value?: string };
      const wallet = createWalletClient({
        chain: a.chain,
        transport: http(a.rpcUrl),
        account: privateKeyToAccount(key.user),
      });
      const depositHash = await wallet.sendTransaction({
        to: raw.to,
        data: raw.data,
        value: BigInt(raw.value ?? 0),
      });
      await a.client.waitForTransactionReceipt({ hash: depositHash });
      await api.executeIntent({ intentId, depositTransactionHash: depositHash });

      const receipt = await waitUntilDone(intentId);
      expect(receipt.status).toBe('SUCCEEDED');
      const received = (await wethBalance(CHAIN_B, user)) - before;
      expect(received).toBeGreaterThanOrEqual(intent.quote.toAmountMin);
      expect(intent.quote.toAmountMin).toBeGreaterThan(0n);
    },
    INTENT_TIMEOUT_MS,
  );

  it('sends no transaction on a second deploy', async () => {
    const deployer = addressOf(key.deployer);
    const nonces = await Promise.all([a, b].map((c) => c.client.getTransactionCount({ address: deployer })));
    const again = await block('deploy');
    expect(again.code).toBe(0);
    expect(again.stdout.match(/0 deployed, 4 already deployed/g)).toHaveLength(2);
    expect(await Promise.all([a, b].map((c) => c.client.getTransactionCount({ address: deployer })))).toEqual(
      nonces,
    );
  }, 120_000);

  // Needs the quote-time inventory check of issue 18 item 4 (the solver's side of the issue).
  it('refuses a quote larger than the solver’s inventory on B with the inventory error', async () => {
    const available = await wethBalance(CHAIN_B, addressOf(key.solver));
    const error = await api
      .quoteIntent({
        ownerAddress: addressOf(key.user),
        originChainId: CHAIN_A,
        originTokenAddress: weth[CHAIN_A]!,
        originTokenAmount: available + parseEther('5'),
        destinationChainId: CHAIN_B,
        destinationTokenAddress: weth[CHAIN_B]!,
        destinationToAddress: addressOf(key.user),
        destinationTokenAmount: 0n,
        tradeType: 'EXACT_INPUT' as never,
      })
      .then(
        () => undefined,
        (e: unknown) => e as { message?: string; status?: number },
      );
    expect(error, 'the quote was accepted').toBeDefined();
    const message = String(error!.message);
    expect(message).toMatch(/inventory/i);
    expect(message).toContain('WETH');
    expect(message).toContain(String(CHAIN_B));
    expect(message.includes(available.toString()) || message.includes(formatUnits(available, 18))).toBe(true);
    expect(error!.status).not.toBe(500);
  }, 60_000);

  it('fails doctor, naming the solver and WETH on chain B, once the solver holds none there', async () => {
    const solver = addressOf(key.solver);
    const all = await wethBalance(CHAIN_B, solver);
    await b.send(key.solver, {
      to: weth[CHAIN_B]!,
      data: encodeFunctionData({ abi: weth9Abi, functionName: 'withdraw', args: [all] }),
    });
    const doctor = await block('doctor');
    expect(doctor.code).toBe(1);
    const failures = doctor.stdout.split('\n').filter((line) => line.startsWith('FAIL'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      new RegExp(`^FAIL +chain ${CHAIN_B} +solver-inventory +the solver ${solver} holds no WETH`),
    );
  }, 120_000);
});

async function waitUntilDone(intentId: string): Promise<IntentReceipt> {
  let last: TransactionStatus[] | undefined;
  for (;;) {
    const answer = await api.waitIntentReceipt({ intentId, lastReceiptStates: last });
    if (answer.done) return answer.intentReceipt;
    last = answer.receiptStates;
  }
}
