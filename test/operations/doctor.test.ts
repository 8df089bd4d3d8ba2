/**
 * The operator checks (`switchyard doctor`, and `serve` at start) on two fresh anvil chains with our
 * contracts and WETH9: everything ok when it is, and each thing an operator can get wrong is a named failure
 * or warning with its fix: the solver holding none of a token, a wrong attester key, a relayer without gas, an
 * RPC of another chain, a wrong contract address, missing or partial keys, a stuck head, a database from a
 * newer version. serve refuses to start on a failure unless --skip-checks.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  parseEther,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/api/resolve-config.ts';
import { deploySwitchyardContracts } from '../../src/contracts/deploy.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../../src/intents/plan/constants.ts';
import type { SwitchyardContracts } from '../../src/internal/config-types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { RELAYER_GAS_PER_INTENT } from '../../src/operator/checks/constants.ts';
import { runOperatorChecks } from '../../src/operator/checks/run-operator-checks.ts';
import type { CheckResult } from '../../src/operator/checks/types.ts';
import { weth9Abi } from '../../src/providers/abis.ts';
import { createStore } from '../../src/store/create-store.ts';
import { type FreshChain, startFreshChain } from './support/fresh-chain.ts';
import { cleanEnv, runCli } from './support/run-cli.ts';

const A = 516_001;
const B = 516_002;
const keys = {
  deployer: generatePrivateKey(),
  relayer: generatePrivateKey(),
  solver: generatePrivateKey(),
  attester: generatePrivateKey(),
};
const address = (key: `0x${string}`) => privateKeyToAccount(key).address;
const feeCollector = address(generatePrivateKey());
const env = {
  SWITCHYARD_RELAYER_KEY: keys.relayer,
  SWITCHYARD_SOLVER_KEY: keys.solver,
  SWITCHYARD_ATTESTER_KEY: keys.attester,
  SWITCHYARD_FEE_COLLECTOR: feeCollector,
};

let dir: string;
let chains: Record<number, FreshChain>;
let weth: Record<number, Address>;
let ours: SwitchyardContracts;

function chainEntry(
  chain: FreshChain,
  overrides: { rpcUrl?: string; contracts?: Partial<SwitchyardContracts> } = {},
) {
  const wrapped = weth[chain.chainId];
  return {
    chainId: chain.chainId,
    name: `Fresh ${chain.chainId}`,
    rpcUrls: [overrides.rpcUrl ?? chain.rpcUrl],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    tokens: [
      { symbol: 'ETH', name: 'Ether', address: zeroAddress, decimals: 18 },
      ...(wrapped ? [{ symbol: 'WETH', name: 'Wrapped Ether', address: wrapped, decimals: 18 }] : []),
    ],
    contracts: { ...ours, ...(wrapped && { weth: wrapped }), ...overrides.contracts },
  };
}

async function writeConfig(name: string, entries: ReturnType<typeof chainEntry>[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify({ dataDir: path.join(dir, 'data'), chains: entries }));
  return file;
}

async function checks(
  configFile: string,
  extraEnv: Record<string, string | undefined> = env,
  headWaitMs?: number,
) {
  const config = resolveConfig({ configPath: configFile, env: {}, flags: {} });
  return runOperatorChecks({ config, env: extraEnv, headWaitMs });
}

const failed = (results: CheckResult[]) => results.filter((r) => r.status !== 'ok');

async function wrap(chainId: number, wei: bigint) {
  const data = encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' });
  await chains[chainId]!.send(keys.solver, { to: weth[chainId]!, data, value: wei });
}

async function unwrapAll(chainId: number) {
  const chain = chains[chainId]!;
  const balance = await chain.client.readContract({
    address: weth[chainId]!,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address(keys.solver)],
  });
  const data = encodeFunctionData({ abi: weth9Abi, functionName: 'withdraw', args: [balance] });
  await chain.send(keys.solver, { to: weth[chainId]!, data });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sw-doctor-'));
  const [a, b] = await Promise.all([startFreshChain(A), startFreshChain(B)]);
  chains = { [A]: a, [B]: b };
  weth = {};
  for (const chain of [a, b]) {
    const deployer = privateKeyToAccount(keys.deployer);
    await chain.fund(deployer.address, parseEther('10'));
    ours = await deploySwitchyardContracts({
      publicClient: chain.client,
      walletClient: createWalletClient({
        chain: chain.chain,
        transport: http(chain.rpcUrl),
        account: deployer,
      }),
      attester: address(keys.attester),
      graceSeconds: DEFAULT_SETTLEMENT_GRACE_SECONDS,
    });
    weth[chain.chainId] = await chain.deployWeth9();
    await chain.fund(address(keys.relayer), parseEther('10'));
    await chain.fund(address(keys.solver), parseEther('20'));
    await wrap(chain.chainId, parseEther('5'));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(Object.values(chains ?? {}).map((c) => c.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('switchyard doctor', () => {
  it('passes every check on a chain set up right, one line each, and exits 0', async () => {
    const file = await writeConfig('ok.json', [chainEntry(chains[A]!), chainEntry(chains[B]!)]);
    const results = await checks(file);
    expect(failed(results)).toEqual([]);
    const perChain = ['rpc', 'contracts', 'attester', 'relayer-gas', 'solver-gas', 'solver-inventory'];
    expect(results.map((r) => `${r.chainId ?? '-'} ${r.check}`)).toEqual([
      '- keys',
      '- fee-collector',
      '- database',
      ...perChain.map((c) => `${A} ${c}`),
      ...perChain.map((c) => `${B} ${c}`),
    ]);
    expect(results.find((r) => r.chainId === B && r.check === 'solver-inventory')?.message).toBe(
      'the solver holds 5 WETH; no allowance to the DestinationSettler yet (the first fill approves it)',
    );

    const cli = await runCli(['doctor', '--config', file], env);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^ok +chain 516001 +rpc +answers as chain 516001/m);
    expect(cli.stdout.trim().split('\n').at(-1)).toBe('15 ok, 0 warn, 0 fail');
  }, 60_000);

  it('fails naming the solver and the token when the solver holds none of it on a chain', async () => {
    await unwrapAll(B);
    try {
      const file = await writeConfig('ok.json', [chainEntry(chains[A]!), chainEntry(chains[B]!)]);
      expect(failed(await checks(file))).toEqual([
        {
          check: 'solver-inventory',
          chainId: B,
          status: 'fail',
          message: `the solver ${address(keys.solver)} holds no WETH (${weth[B]}) on chain ${B}: nothing can be delivered in it here`,
          fix: `send WETH to the solver ${address(keys.solver)} on chain ${B}, or remove WETH from the chain's tokens`,
        },
      ]);
      const cli = await runCli(['doctor', '--config', file], env);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toContain(
        `FAIL  chain ${B}  solver-inventory  the solver ${address(keys.solver)} holds no WETH`,
      );
      expect(cli.stdout).toContain(`      fix: send WETH to the solver`);
    } finally {
      await wrap(B, parseEther('5'));
    }
  }, 60_000);

  it('fails when the attester key is not the fill verifier’s', async () => {
    const file = await writeConfig('ok.json', [chainEntry(chains[A]!)]);
    const other = generatePrivateKey();
    const [problem] = failed(await checks(file, { ...env, SWITCHYARD_ATTESTER_KEY: other }));
    expect(problem).toMatchObject({ check: 'attester', chainId: A, status: 'fail' });
    expect(problem!.message).toBe(
      `SWITCHYARD_ATTESTER_KEY is ${address(other)}, but the fill verifier accepts ${address(keys.attester)}: every fill would go unpaid`,
    );
  }, 60_000);

  it('counts the relayer’s gas in intents: none fails, a few warns', async () => {
    const chain = chains[A]!;
    const file = await writeConfig('ok.json', [chainEntry(chain)]);
    try {
      await chain.fund(address(keys.relayer), 0n);
      expect(failed(await checks(file)).map((r) => [r.check, r.status])).toEqual([['relayer-gas', 'fail']]);
      const fee = (await chain.client.estimateFeesPerGas()).maxFeePerGas;
      await chain.fund(address(keys.relayer), RELAYER_GAS_PER_INTENT * fee * 10n);
      const [low] = failed(await checks(file));
      expect(low).toMatchObject({ check: 'relayer-gas', status: 'warn' });
      expect(low!.message).toMatch(/gas for about (9|10) intents at the current fee/);
    } finally {
      await chain.fund(address(keys.relayer), parseEther('10'));
    }
  }, 60_000);

  it('fails an RPC of another chain, and a contract address that holds other code', async () => {
    const wrongRpc = await writeConfig('rpc.json', [chainEntry(chains[A]!, { rpcUrl: chains[B]!.rpcUrl })]);
    expect(failed(await checks(wrongRpc))).toMatchObject([
      { check: 'rpc', chainId: A, status: 'fail', message: `the RPC answers as chain ${B}, not ${A}` },
    ]);
    const wrongVerifier = await writeConfig('verifier.json', [
      chainEntry(chains[A]!, { contracts: { fillVerifier: weth[A]! } }),
    ]);
    const [problem] = failed(await checks(wrongVerifier));
    expect(problem).toMatchObject({ check: 'contracts', chainId: A, status: 'fail' });
    expect(problem!.message).toContain(
      `fillVerifier at ${weth[A]} holds other code than this build's AttestedFillVerifier`,
    );
  }, 60_000);

  it('warns without operator keys and fails on a partial set', async () => {
    const file = await writeConfig('ok.json', [chainEntry(chains[A]!)]);
    const none = await checks(file, {});
    expect(failed(none)).toMatchObject([{ check: 'keys', status: 'warn' }]);
    expect(none.map((r) => r.check)).toEqual(['keys', 'database', 'rpc', 'contracts']);
    const partial = failed(await checks(file, { SWITCHYARD_RELAYER_KEY: keys.relayer }));
    expect(partial).toMatchObject([{ check: 'keys', status: 'fail' }]);
    expect(partial[0]!.message).toContain('SWITCHYARD_SOLVER_KEY must be set');
  }, 60_000);

  it('fails a head that does not move, and passes one that does', async () => {
    const [stuck, moving] = await Promise.all([
      startFreshChain(516_003, ['--no-mining']),
      startFreshChain(516_004, ['--block-time', '1']),
    ]);
    try {
      const file = await writeConfig('heads.json', [chainEntry(stuck), chainEntry(moving)]);
      const results = await checks(file, {}, 3_000);
      expect(results.find((r) => r.chainId === 516_003)).toMatchObject({
        check: 'rpc',
        status: 'fail',
        message: 'the head stayed at block 0 for 3 s: the node is stuck or not syncing',
      });
      expect(results.find((r) => r.chainId === 516_004 && r.check === 'rpc')).toMatchObject({ status: 'ok' });
      expect(results.find((r) => r.chainId === 516_004 && r.check === 'rpc')!.message).toMatch(
        /head advancing/,
      );
    } finally {
      await Promise.all([stuck.stop(), moving.stop()]);
    }
  }, 60_000);

  it('reads the database without migrating it, and fails one a newer version migrated', async () => {
    const dataDir = path.join(dir, 'db-check');
    const file = path.join(dir, 'db.json');
    await writeFile(file, JSON.stringify({ dataDir, chains: [chainEntry(chains[A]!)] }));
    const fresh = (await checks(file, {})).find((r) => r.check === 'database');
    expect(fresh).toMatchObject({ status: 'ok' });
    expect(fresh!.message).toMatch(/does not exist yet: serve creates it and applies \d+ migrations/);
    await mkdir(dataDir, { recursive: true });
    const store = await createStore({
      sqlitePath: path.join(dataDir, 'switchyard.sqlite'),
      log: createSilentLogger(),
    });
    await store.close();
    expect((await checks(file, {})).find((r) => r.check === 'database')!.message).toMatch(
      /reachable, migrated/,
    );
    const db = new Database(path.join(dataDir, 'switchyard.sqlite'));
    db.exec(
      "insert into kysely_migration (name, timestamp) values ('9999_newer', '2030-01-01T00:00:00.000Z')",
    );
    db.close();
    expect((await checks(file, {})).find((r) => r.check === 'database')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('has migrations this version does not know (9999_newer)'),
    });
  }, 60_000);
});

describe('switchyard serve runs the checks first', () => {
  it('refuses to start when one fails, and starts with --skip-checks', async () => {
    const file = await writeConfig('ok.json', [chainEntry(chains[A]!)]);
    const badEnv = { ...env, SWITCHYARD_ATTESTER_KEY: generatePrivateKey(), PORT: '0' };
    const refused = await runCli(['serve', '--config', file], badEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'switchyard serve: 1 start-up check(s) failed: SWITCHYARD_ATTESTER_KEY is',
    );
    expect(refused.stderr).toContain('or start anyway with --skip-checks');

    const child = spawn(process.execPath, ['bin/switchyard.js', 'serve', '--config', file, '--skip-checks'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...cleanEnv(), ...badEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let output = '';
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const match = /Switchyard API on (\S+)/.exec(chunk.toString());
        if (match) resolve(match[1]!);
      });
      void exited.then(({ code }) =>
        reject(new Error(`serve exited (${code}) before it was ready:\n${output}`)),
      );
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output).toContain('start-up checks skipped (--skip-checks)');
    child.kill('SIGTERM');
    // The signal in the failure message, should one ever end it instead of its own clean exit.
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 90_000);
});
