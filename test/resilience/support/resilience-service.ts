/**
 * The set-up every resilience test shares: a devnet in the test process (test/harness/devnet.ts), a store
 * (SQLite file or a Postgres database) that the test opens for reads and to create the access key, a
 * `serve` config for the devnet's chains written to a temp dir, and `switchyard serve` running as a child
 * process with the devnet's operator keys in its environment. The test can SIGKILL and restart it at will,
 * put loopback proxies in front of chains (rpc-proxy.ts) and raise a chain's confirmation depth. Every start
 * listens on a fresh port (`url()` and `api()` follow it), so a child that outlived a failed test cannot
 * block the next start.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TrailsApi } from '@0xtrails/api';
import type { ChainConfig } from '../../../src/internal/config-types.ts';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import { createStore } from '../../../src/store/create-store.ts';
import type { Store } from '../../../src/store/types.ts';
import { toFileChain } from '../../harness/config-file.ts';
import { createTestDatabase, type Dialect, type TestDatabase } from '../../harness/database.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../harness/devnet.ts';
import { freePort } from '../../harness/free-port.ts';
import { type ServeProcess, ServeStartError, startServeProcess } from './serve-process.ts';

/**
 * Starts tried when the fresh port was taken between freePort() and the child's listen (another process on
 * this shared machine got it first): the next try picks another port. Any other start failure is final.
 */
const START_ATTEMPTS = 3;
/**
 * The serve config's step lease (ms). A SIGKILLed process's restart ends its leases at once (the engine's
 * start ends dead workers' leases on its machine); this bounds the wait where that cannot happen, instead
 * of production's 10 s. Still several heartbeats long (one every quarter lease), so a live process on a
 * loaded machine keeps its steps.
 */
export const RESILIENCE_STEP_LEASE_MS = 3_000;

export interface ResilienceOptions {
  dialect?: Dialect;
  /** Confirmation depth per chain id (default: the devnet's). */
  confirmations?: Record<number, number>;
  /** RPC URL per chain id that the service uses instead of the chain's own (a fault proxy). */
  rpcUrls?: Record<number, string>;
  /** More fields of the serve config file (e.g. `webhooks`). */
  serveConfig?: Record<string, unknown>;
}

export interface ResilienceService {
  net: TestDevnet;
  store: Store;
  database: TestDatabase;
  key: string;
  /** The running process (undefined between kill and restart). */
  process: ServeProcess | undefined;
  /** A client of the latest started process (its port changes with every start). */
  api(): TrailsApi;
  url(): string;
  chain(chainId: number | bigint): TestDevnetChain;
  /** Starts the process; `env` adds variables for this run only (e.g. SWITCHYARD_DEBUG_CRASH_AT). */
  start(env?: Record<string, string>): Promise<ServeProcess>;
  /** SIGKILL the process (whether or not it is still running) and wait for its exit. */
  kill(): Promise<void>;
  /** SIGTERM: the clean shutdown. */
  stopProcess(): Promise<void>;
  /** Forgets a process that died on its own (the crash hook). */
  forget(): void;
  /** The chains as the service sees them (proxied RPC URLs, raised confirmations). */
  chainConfigs: ChainConfig[];
  logPath: string;
  stop(): Promise<void>;
}

export async function startResilienceService(
  options: ResilienceOptions = {},
  net?: TestDevnet,
): Promise<ResilienceService> {
  const devnet = net ?? (await startTestDevnet());
  const database = await createTestDatabase(options.dialect ?? 'sqlite');
  const workDir = await mkdtemp(path.join(tmpdir(), 'switchyard-resilience-'));
  const dataDir = database.options.sqlitePath ? path.dirname(database.options.sqlitePath) : workDir;
  const store = await createStore({ ...database.options, log: createSilentLogger() });
  const project = await store.projects.ensure('resilience');
  const { key } = await store.accessKeys.create({ projectId: project.id });

  const chainConfigs = devnet.chainConfigs.map((c) => ({
    ...c,
    rpcUrls: options.rpcUrls?.[c.chainId] ? [options.rpcUrls[c.chainId]!] : c.rpcUrls,
    confirmations: options.confirmations?.[c.chainId] ?? c.confirmations,
  }));
  const configPath = path.join(workDir, 'serve.json');
  // The file's port is never used: every start passes a fresh one with --port, which wins over the file.
  let port = await freePort();
  await writeFile(
    configPath,
    JSON.stringify({
      host: '127.0.0.1',
      port,
      dataDir,
      ...(database.options.databaseUrl && { databaseUrl: database.options.databaseUrl }),
      role: 'all',
      stepLeaseMs: RESILIENCE_STEP_LEASE_MS,
      chains: chainConfigs.map(toFileChain),
      // Several serve processes run at once (this suite and others): metrics on any free port, not 9464.
      metrics: { host: '127.0.0.1', port: 0 },
      ...options.serveConfig,
    }),
  );
  const accounts = devnet.devnet.accounts;
  const operatorEnv = {
    SWITCHYARD_RELAYER_KEY: accounts.relayer!.privateKey,
    SWITCHYARD_SOLVER_KEY: accounts.solver!.privateKey,
    SWITCHYARD_ATTESTER_KEY: accounts.attester!.privateKey,
    SWITCHYARD_FEE_COLLECTOR: accounts.feeCollector!.address,
  };
  const logPath = path.join(workDir, 'serve.log');

  const service: ResilienceService = {
    net: devnet,
    store,
    database,
    key,
    process: undefined,
    chainConfigs,
    logPath,
    url: () => `http://127.0.0.1:${port}`,
    api: () => new TrailsApi(key, { hostname: `http://127.0.0.1:${port}` }),
    chain(chainId) {
      const found = devnet.chains.find((c) => c.entry.chainId === Number(chainId));
      if (!found) throw new Error(`no devnet chain ${chainId}`);
      return found;
    },
    async start(env = {}) {
      // A process still tracked here would keep running unseen (and keep its port): end it first.
      await service.kill();
      for (let attempt = 1; ; attempt++) {
        port = await freePort();
        try {
          service.process = await startServeProcess({
            configPath,
            port,
            env: { ...operatorEnv, ...env },
            logPath,
          });
          return service.process;
        } catch (error) {
          const portTaken = error instanceof ServeStartError && /EADDRINUSE/.test(error.output);
          if (!portTaken || attempt >= START_ATTEMPTS) throw error;
        }
      }
    },
    async kill() {
      await service.process?.kill();
      service.process = undefined;
    },
    async stopProcess() {
      await service.process?.stop();
      service.process = undefined;
    },
    forget() {
      service.process = undefined;
    },
    async stop() {
      await service.process?.stop();
      service.process = undefined;
      await store.close();
      await database.drop();
      if (!net) await devnet.stop();
      if (!process.env.KEEP_RESILIENCE_LOGS) await rm(workDir, { recursive: true, force: true });
    },
  };
  return service;
}
