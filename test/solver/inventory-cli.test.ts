/**
 * `switchyard inventory --config FILE`, run as the operator runs it (a child process of bin/switchyard.js)
 * against a devnet and the store of a running service with the real engine:
 * - one intent has run (its fill landed) and waits in the settlement batch: what it repays the solver on
 *   alpha is OWED there; another is committed and not deposited: its fill is HELD on beta;
 * - beta's USDC has a low-water mark above what is available: LOW;
 * - once the settlement is mined, nothing is owed and the solver's alpha balance grew by it;
 * - without a solver address the command says how to give one.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TrailsApi } from '@0xtrails/api';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { decodePlan } from '../../src/intents/plan-codec.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { Store } from '../../src/store/types.ts';
import { balanceOf, type E2eService } from '../e2e/support/e2e-fixture.ts';
import { tokenOf, usdc, usdcToSecondChain } from '../e2e/support/requests.ts';
import { runIntent } from '../e2e/support/run-intent.ts';
import { FAST_ENGINE_OPTIONS, startTestService, type TestService } from '../harness/app.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/switchyard.js');
/**
 * The settlement of the intent that runs waits this long for others to share its batch (ms): long enough
 * for the command to see it owed on a loaded machine, short enough that the test then sees it settled.
 */
const SETTLE_WINDOW_MS = 20_000;
/** beta USDC's low-water mark: above the solver's whole devnet inventory (1,000,000 USDC). */
const MARK = usdc('2000000');

let net: TestDevnet;
let dataDir: string;
let store: Store;
let svc: TestService;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let configPath: string;
let solver: Address;

beforeAll(async () => {
  [net, dataDir] = await Promise.all([startTestDevnet(), mkdtemp(join(tmpdir(), 'sw-inventory-cli-'))]);
  [alpha, beta] = net.chains as [TestDevnetChain, TestDevnetChain];
  solver = net.devnet.accounts.solver!.address;
  store = await createStore({ sqlitePath: join(dataDir, 'switchyard.sqlite'), log: createSilentLogger() });
  const chains = net.chainConfigs.map((c) =>
    c.chainId !== beta.entry.chainId
      ? c
      : { ...c, tokens: c.tokens.map((t) => (t.symbol === 'USDC' ? { ...t, lowWaterMark: MARK } : t)) },
  );
  svc = await startTestService({
    chains,
    store,
    operator: devnetOperator(net.devnet),
    engineOptions: { ...FAST_ENGINE_OPTIONS, settleBatchWindowMs: SETTLE_WINDOW_MS },
    rateLimit: false,
  });
  // The serve config an operator would write for these chains (amounts in base units, as decimal strings).
  configPath = join(dataDir, 'serve.json');
  const json = JSON.stringify({ dataDir, chains }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  await writeFile(configPath, json);
  // The first run compiles the sources to dist/; later runs start at once.
  await inventory(['--help']);
}, 180_000);
afterAll(async () => {
  await svc?.stop();
  await store?.close();
  await net?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function inventory(args: string[], env: Record<string, string> = {}) {
  const solverKey = net.devnet.accounts.solver!.privateKey;
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'inventory', ...args], {
      env: { ...process.env, DATABASE_URL: '', SWITCHYARD_SOLVER_KEY: solverKey, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

interface JsonLine {
  chainId: number;
  symbol: string;
  address: string;
  balance: string;
  held: string;
  owed: string;
  available: string;
  lowWaterMark: string | null;
  low: boolean;
}

async function report(): Promise<JsonLine[]> {
  const result = await inventory(['--config', configPath, '--json']);
  expect(result.stderr).toContain(`solver ${solver}`);
  expect(result.code).toBe(0);
  const parsed = JSON.parse(result.stdout) as { solver: string; tokens: JsonLine[] };
  expect(parsed.solver).toBe(solver);
  return parsed.tokens;
}

const line = (lines: JsonLine[], chain: TestDevnetChain, symbol: string) =>
  lines.find((l) => l.chainId === chain.entry.chainId && l.symbol === symbol)!;

const usdcToBeta = (amountIn: bigint) => usdcToSecondChain(net, amountIn);

describe('switchyard inventory', () => {
  it('prints per chain and token the balance, what open orders hold, what settlements owe, and the mark', async () => {
    const api = new TrailsApi(svc.key, { hostname: svc.url });
    const chain = (chainId: number | bigint) => net.chains.find((c) => c.entry.chainId === Number(chainId))!;
    const e2e: E2eService = {
      ...svc,
      net,
      chain,
      balance: (chainId, token, holder) => balanceOf(chain(chainId), token as Address, holder as Address),
    };
    const { intent: ran } = await runIntent(e2e, api, usdcToBeta(usdc('100')));
    const ranOrder = decodePlan((await store.intents.getForEngine(ran.intentId))!.planJson!).order!;
    const { intent: committed } = await api.quoteIntent(usdcToBeta(usdc('200')));
    await api.commitIntent({ intent: committed });

    const lines = await report();
    const betaUsdc = line(lines, beta, 'USDC');
    const balance = await balanceOf(beta, tokenOf(beta, 'USDC'), solver);
    expect(betaUsdc).toMatchObject({
      address: tokenOf(beta, 'USDC'),
      balance: balance.toString(),
      held: committed.quote.toAmount.toString(),
      owed: '0',
      available: (balance - committed.quote.toAmount).toString(),
      lowWaterMark: MARK.toString(),
      low: true,
    });
    expect(line(lines, alpha, 'USDC')).toMatchObject({
      held: '0',
      owed: ranOrder.inputAmount.toString(),
      lowWaterMark: null,
      low: false,
    });
    expect(line(lines, beta, 'DAI')).toMatchObject({ held: '0', owed: '0', low: false });

    const table = await inventory(['--config', configPath]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(
      /^CHAIN\s+TOKEN\s+BALANCE\s+HELD\s+OWED\s+AVAILABLE\s+LOW-WATER\s+STATUS$/,
    );
    expect(table.stdout).toMatch(
      new RegExp(`\\n${beta.entry.chainId} [^\\n]*USDC [^\\n]* 2000000\\s+LOW\\n`),
    );
  }, 120_000);

  it('owes nothing once the settlement is mined, and the solver holds what it was repaid', async () => {
    const before = BigInt(line(await report(), alpha, 'USDC').balance);
    const owed = BigInt(line(await report(), alpha, 'USDC').owed);
    const deadline = Date.now() + SETTLE_WINDOW_MS * 3;
    while ((await store.solverInventory.owed({ settleStep: 'settle' })).length > 0) {
      if (Date.now() > deadline) throw new Error('the settlement did not happen');
      await new Promise((r) => setTimeout(r, 250));
    }
    const after = line(await report(), alpha, 'USDC');
    expect(after.owed).toBe('0');
    expect(BigInt(after.balance) - before).toBe(owed);
  }, 120_000);

  it('without a solver address, says how to give one', async () => {
    const result = await inventory(['--config', configPath], { SWITCHYARD_SOLVER_KEY: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('set SWITCHYARD_SOLVER_KEY');
    expect(result.stderr).toContain('--solver ADDRESS');
  });
});
