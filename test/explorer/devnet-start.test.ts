/**
 * `switchyard start` (the command `npm start` runs) on free ports: devnet.json gains `explorerUrl` and
 * `metricsUrl` beside every field it had; the explorer page there carries the devnet key, so it opens with
 * it filled in; GetChains links the devnet chains to the explorer's transaction view; and the metrics
 * listener answers Prometheus text.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const READY_LINE = /^metrics: +(\S+)/m;

let dataDir: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-start-'));
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('switchyard start: the explorer and the metrics beside the devnet', () => {
  it('writes explorerUrl and metricsUrl into devnet.json and serves both', async () => {
    const started = spawn(
      process.execPath,
      ['bin/switchyard.js', 'start', '--data-dir', dataDir, '--base-port', '0'],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', DATABASE_URL: '' },
      },
    );
    child = started;
    const exited = new Promise<{ code: number | null }>((resolve) =>
      started.once('exit', (code) => resolve({ code })),
    );
    const stdout = await readyOutput(started, exited);

    const devnet = JSON.parse(await readFile(path.join(dataDir, 'devnet.json'), 'utf8'));
    expect(Object.keys(devnet).sort()).toEqual([
      'accessKey',
      'accounts',
      'apiUrl',
      'chains',
      'explorerUrl',
      'metricsUrl',
    ]);
    expect(devnet.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(devnet.apiUrl).not.toBe('http://127.0.0.1:0');
    expect(devnet.explorerUrl).toBe(`${devnet.apiUrl}/explorer`);
    expect(devnet.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(stdout).toContain(`explorer:     ${devnet.explorerUrl}`);
    expect(READY_LINE.exec(stdout)?.[1]).toBe(devnet.metricsUrl);

    const page = await fetch(devnet.explorerUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain(`<meta name="switchyard-devnet-key" content="${devnet.accessKey}">`);

    const chains = await fetch(`${devnet.apiUrl}/rpc/Trails/GetChains`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': devnet.accessKey },
      body: '{}',
    });
    const { chains: listed } = (await chains.json()) as {
      chains: { id: number; blockExplorerUrl?: string }[];
    };
    expect(listed.map((c) => c.blockExplorerUrl)).toEqual(
      devnet.chains.map((c: { chainId: number }) => `${devnet.explorerUrl}/chains/${c.chainId}`),
    );

    const metrics = await fetch(devnet.metricsUrl);
    expect(metrics.status).toBe(200);
    const families = parsePrometheusTextFormat(await metrics.text());
    const requests = families.find((f) => f.name === 'switchyard_http_requests_total');
    expect(requests?.metrics).toContainEqual({ labels: { method: 'GetChains', status: '200' }, value: '1' });

    started.kill('SIGINT');
    expect(await exited).toEqual({ code: 0 });
  });
});

/** The output up to the metrics line, the last the command prints once everything listens. */
function readyOutput(command: ChildProcess, exited: Promise<unknown>): Promise<string> {
  let stdout = '';
  let stderr = '';
  command.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise<string>((resolve) => {
    command.stdout?.on('data', (chunk) => {
      stdout += chunk;
      if (READY_LINE.test(stdout)) resolve(stdout);
    });
  });
  const died = exited.then(() => {
    throw new Error(`switchyard start exited before it was ready:\n${stdout}\n${stderr}`);
  });
  return Promise.race([ready, died]);
}
