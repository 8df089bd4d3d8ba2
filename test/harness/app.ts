/**
 * A devnet plus one Switchyard process built by the production assembly (`startSwitchyard`, the same code
 * `switchyard start` runs): SQLite in a temporary data dir, the API on a loopback port, the engine with the
 * devnet's operator keys, and a project access key. Typical use:
 *
 *   const app = await startTestSwitchyard();     // in beforeAll
 *   const api = new TrailsApi(app.key, { hostname: app.url });
 *   await app.stop();                            // in afterAll: the process, then the devnet and the dirs
 *
 * Fixtures that need what the production assembly cannot give (a service fee, engine timings, a recording
 * engine, an injected clock) assemble their own process instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { ensureProjectKey } from '../../src/app/ensure-project-key.ts';
import { startSwitchyard } from '../../src/app/start-switchyard.ts';
import type { IntentEngine } from '../../src/engine/types.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createShutdown } from '../../src/internal/shutdown.ts';
import type { Store } from '../../src/store/index.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain, type TestDevnetOptions } from './devnet.ts';

/** Loopback only: tests talk to the API from this process. */
const TEST_HOST = '127.0.0.1';
/** Port 0: the OS picks a free port, so suites running side by side never collide. */
const TEST_PORT = 0;

export interface TestSwitchyardOptions {
  /** The project the access key belongs to; default `devnet` (what `switchyard start` uses). */
  projectName?: string;
  devnet?: TestDevnetOptions;
  /**
   * The access key's rate limit (requests per minute); default the store's own default, as a devnet key has.
   * Suites that poll (WaitIntentReceipt in a loop) set more so the limiter is not what they end up testing.
   */
  keyRateLimitPerMinute?: number;
}

export interface TestSwitchyard {
  /** The devnet: parsed devnet.json, chain configs, and per-chain public/test/wallet clients. */
  net: TestDevnet;
  /** http://127.0.0.1:<port> */
  url: string;
  store: Store;
  /** The project's access key (header X-Access-Key). */
  key: string;
  engine: IntentEngine | undefined;
  chain(chainId: number | bigint): TestDevnetChain;
  /** Stops the process (API, engine, store), then the devnet, and deletes the data dir. */
  stop(): Promise<void>;
}

export async function startTestSwitchyard(options: TestSwitchyardOptions = {}): Promise<TestSwitchyard> {
  const [net, dataDir] = await Promise.all([
    startTestDevnet(options.devnet),
    mkdtemp(path.join(tmpdir(), 'switchyard-app-')),
  ]);
  const shutdown = createShutdown();
  shutdown.add('devnet', () => net.stop());
  shutdown.add('data dir', () => rm(dataDir, { recursive: true, force: true }));
  try {
    const app = await startSwitchyard({
      config: { host: TEST_HOST, port: TEST_PORT, dataDir, role: 'all', chains: net.chainConfigs },
      operator: devnetOperator(net.devnet),
      log: createSilentLogger(),
      shutdown,
    });
    const key = await projectKey(app.store, options);
    return {
      net,
      url: app.url,
      store: app.store,
      key,
      engine: app.engine,
      chain: (chainId) => chainById(net, chainId),
      stop: () => shutdown.shutdown(),
    };
  } catch (error) {
    await shutdown.shutdown();
    throw error;
  }
}

async function projectKey(store: Store, options: TestSwitchyardOptions): Promise<string> {
  const projectName = options.projectName ?? 'devnet';
  if (options.keyRateLimitPerMinute === undefined) return ensureProjectKey(store, projectName);
  const project = await store.projects.ensure(projectName);
  const { key } = await store.accessKeys.create({
    projectId: project.id,
    label: 'test',
    rateLimitPerMinute: options.keyRateLimitPerMinute,
  });
  return key;
}

function chainById(net: TestDevnet, chainId: number | bigint): TestDevnetChain {
  const found = net.chains.find((c) => c.entry.chainId === Number(chainId));
  if (!found) throw new Error(`no devnet chain ${chainId}`);
  return found;
}
