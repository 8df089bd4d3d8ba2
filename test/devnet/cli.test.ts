import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAddress, isHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_LINE_PREFIX } from '../../src/devnet/format-summary.ts';
import { stablePortRange } from '../harness/free-port.ts';
import { type Finished, runToEnd } from '../harness/run-to-end.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const CHAIN_COUNT = 3;

describe('switchyard devnet (the command)', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  const start = (args: string[]) => {
    const child = spawn(process.execPath, ['bin/switchyard.js', 'devnet', '--data-dir', dataDir, ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOST: '127.0.0.1', PORT: '8787' },
    });
    children.push(child);
    return child;
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-cli-'));
  });
  afterAll(async () => {
    // Only matters when a test failed half-way: never leave a devnet running.
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('documents its flags in --help', async () => {
    const { code, stdout } = await runSwitchyard(['devnet', '--help']);
    expect(code).toBe(0);
    for (const flag of ['--reset', '--block-time', '--base-port', '--kept-states', '--data-dir'])
      expect(stdout).toContain(flag);
  });

  it('rejects a bad flag value with a message naming the flag', async () => {
    const { code, stderr } = await runSwitchyard(['devnet', '--base-port', 'abc']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('--base-port');
  });

  it('starts, writes devnet.json in the documented shape, and exits 0 on Ctrl-C with the state saved', async () => {
    const basePort = await stablePortRange(CHAIN_COUNT);
    const child = start(['--base-port', String(basePort)]);
    const exited = exitOf(child);
    const stdout = await waitForOutput(child, READY_LINE_PREFIX, exited);
    expect(stdout).toContain(path.join(dataDir, 'devnet.json'));

    const devnet = JSON.parse(await readFile(path.join(dataDir, 'devnet.json'), 'utf8'));
    expect(Object.keys(devnet).sort()).toEqual(['accessKey', 'accounts', 'apiUrl', 'chains']);
    expect(devnet.apiUrl).toBe('http://127.0.0.1:8787');
    expect(typeof devnet.accessKey).toBe('string');
    expect(devnet.chains).toHaveLength(CHAIN_COUNT);
    devnet.chains.forEach((chain: Record<string, unknown>, i: number) => {
      expect(Object.keys(chain).sort()).toEqual(['chainId', 'contracts', 'name', 'rpcUrl', 'tokens']);
      expect(chain.rpcUrl).toBe(`http://127.0.0.1:${basePort + i}`);
      for (const symbol of ['USDC', 'DAI', 'WETH'])
        expect(isAddress((chain.tokens as Record<string, string>)[symbol]!)).toBe(true);
      for (const name of ['intentFactory', 'originSettler', 'destinationSettler', 'uniswapV2Router']) {
        expect(isAddress((chain.contracts as Record<string, string>)[name]!)).toBe(true);
      }
    });
    expect(isAddress(devnet.accounts.user.address)).toBe(true);
    expect(isHex(devnet.accounts.user.privateKey)).toBe(true);
    expect(stdout).toContain(devnet.chains[0].contracts.intentFactory);

    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    for (const chain of devnet.chains)
      expect(existsSync(path.join(dataDir, 'chains', `${chain.chainId}.json`))).toBe(true);
  });

  it('stops its chains and exits 0 when told to stop while it is still starting', async () => {
    const basePort = await stablePortRange(CHAIN_COUNT);
    const child = start(['--base-port', String(basePort), '--reset']);
    const exited = exitOf(child);
    const stderr = await waitForStderr(child, 'starting chain');
    child.kill('SIGTERM');
    expect(await exited, stderr()).toEqual({ code: 0, signal: null });
    const free = await Promise.all(Array.from({ length: CHAIN_COUNT }, (_, i) => isPortFree(basePort + i)));
    expect(free).toEqual([true, true, true]);
  });
});

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function waitForOutput(child: ChildProcess, text: string, exited: Promise<unknown>): Promise<string> {
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise<string>((resolve) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      // The summary is written in one go; wait for its last line too.
      if (stdout.includes(text) && stdout.includes('Ctrl-C')) resolve(stdout);
    });
  });
  const died = exited.then(() => {
    throw new Error(`switchyard exited before it was ready:\n${stdout}\n${stderr}`);
  });
  return Promise.race([ready, died]);
}

/** Resolves once `text` has appeared on stderr, with a function that returns all stderr so far. */
function waitForStderr(child: ChildProcess, text: string): Promise<() => string> {
  let stderr = '';
  return new Promise((resolve) => {
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes(text)) resolve(() => stderr);
    });
  });
}

function runSwitchyard(args: string[]): Promise<Finished> {
  return runToEnd(process.execPath, ['bin/switchyard.js', ...args], { cwd: REPO_ROOT });
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
