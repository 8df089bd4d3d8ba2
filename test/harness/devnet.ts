/**
 * A whole devnet for a test suite: three anvil chains on free ports that survive a restart (startOnStablePorts),
 * every contract deployed, pools seeded, roles funded, in a fresh temporary data dir. Typical use:
 *
 *   const net = await startTestDevnet();        // in beforeAll (takes ~1–3 s)
 *   const alpha = net.chains[0];                // { entry, publicClient, walletFor(role), testClient }
 *   await alpha.publicClient.readContract({ address: alpha.entry.tokens.USDC, … });
 *   await net.stop();                           // in afterAll: stops the chains, deletes the dir
 *
 * `net.devnet` is the parsed devnet.json (DESIGN §1 shape); `net.chainConfigs` is the server's view.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { hexToBytes } from 'viem';
import { startAnvil } from '../../src/chains/anvil.ts';
import { toLocalAccount } from '../../src/devnet/accounts.ts';
import {
  createDevnetPublicClient,
  createDevnetTestClient,
  createDevnetWalletClient,
  type DevnetPublicClient,
  type DevnetTestClient,
  type DevnetWalletClient,
  devnetChain,
} from '../../src/devnet/chain-clients.ts';
import { DEVNET_CHAINS, type DevnetRole, type KeptStates } from '../../src/devnet/constants.ts';
import { type DevnetChainEntry, type DevnetFile, readDevnetFile } from '../../src/devnet/devnet-file.ts';
import { DevnetPortInUseError } from '../../src/devnet/errors.ts';
import { type RunningDevnet, type StartDevnetOptions, startDevnet } from '../../src/devnet/start-devnet.ts';
import type { ChainConfig } from '../../src/internal/config-types.ts';
import { createSilentLogger, type Logger } from '../../src/internal/logger.ts';
import { stablePortRange } from './free-port.ts';

/** Port picks tried: a pick loses only to another test's start between the check and anvil's listen. */
const DEVNET_START_ATTEMPTS = 3;

export interface TestDevnetChain {
  entry: DevnetChainEntry;
  publicClient: DevnetPublicClient;
  testClient: DevnetTestClient;
  /** A wallet client signing as one of the devnet roles (user, solver, relayer, …). */
  walletFor(role: DevnetRole): DevnetWalletClient;
}

export interface TestDevnet {
  /** devnet.json as written to disk and read back. */
  devnet: DevnetFile;
  chainConfigs: ChainConfig[];
  chains: TestDevnetChain[];
  dataDir: string;
  running: RunningDevnet;
  /**
   * Stops one chain's anvil (SIGTERM: it writes its state file on the way out); its RPC then refuses
   * connections. The devnet's `chainExited` resolves, as for any chain that exits; tests do not watch it.
   */
  stopChain(chainId: number): Promise<void>;
  /**
   * Starts a stopped chain again on the same port from its state file: blocks, receipts, balances and
   * contracts come back, its mempool does not (anvil does not save pending transactions).
   */
  restartChain(chainId: number, options?: { fromState?: string }): Promise<void>;
  /**
   * Kills one chain's anvil with SIGKILL: no state is written on the way out, so a restart finds the
   * state file as the last interval dump (or `saveChainState`) left it. Models a node that crashed.
   */
  killChain(chainId: number): Promise<void>;
  /**
   * The chain's state now (`anvil_dumpState`), written to a file beside its state file; returns the path.
   * `restartChain(id, { fromState })` starts from it: the node comes back *behind*, without the blocks
   * mined after the save (a node that lost its last blocks, deterministically).
   */
  saveChainState(chainId: number): Promise<string>;
  /** Stops the chains and deletes the data dir (unless `keepDataDir`). */
  stop(): Promise<void>;
}

export interface TestDevnetOptions {
  /** Reuse this data dir (e.g. to test restarts); default: a fresh temporary dir. */
  dataDir?: string;
  /** Keep the data dir on stop (the default when `dataDir` is given). */
  keepDataDir?: boolean;
  reset?: boolean;
  blockTime?: number;
  /** startDevnet's `keptStates`: 'all' for suites that read balances far back. */
  keptStates?: KeptStates;
  log?: Logger;
}

export async function startTestDevnet(options: TestDevnetOptions = {}): Promise<TestDevnet> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'switchyard-devnet-')));
  const keepDataDir = options.keepDataDir ?? options.dataDir !== undefined;
  const running = await startOnStablePorts({
    dataDir,
    reset: options.reset,
    blockTime: options.blockTime,
    ...(options.keptStates !== undefined && { keptStates: options.keptStates }),
    log: options.log ?? createSilentLogger(),
  });
  const devnet = await readDevnetFile(dataDir);
  const chains = devnet.chains.map((entry) => testChain(entry, devnet));
  const runningChain = (chainId: number) => {
    const found = running.chains.find((c) => c.spec.chainId === chainId);
    if (!found) throw new Error(`no devnet chain ${chainId}`);
    return found;
  };
  return {
    devnet,
    chainConfigs: running.chainConfigs,
    chains,
    dataDir,
    running,
    async stopChain(chainId) {
      await runningChain(chainId).anvil.stop();
    },
    async restartChain(chainId, restart = {}) {
      const chain = runningChain(chainId);
      if (restart.fromState) await copyFile(restart.fromState, chain.statePath);
      // The options start-chains.ts starts it with (same port and state file); `running.stop()` then stops
      // this process, since it stops whatever each entry holds.
      chain.anvil = await startAnvil({ ...chain.anvilOptions, port: chain.anvil.port });
      // A restarted anvil automines; put interval mining back as start-devnet.ts set it up.
      if (options.blockTime !== undefined) {
        const { testClient } = chains.find((c) => c.entry.chainId === chainId)!;
        await testClient.setAutomine(false);
        await testClient.setIntervalMining({ interval: options.blockTime });
      }
    },
    async killChain(chainId) {
      const { process: child } = runningChain(chainId).anvil;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async saveChainState(chainId) {
      const chain = runningChain(chainId);
      const { testClient } = chains.find((c) => c.entry.chainId === chainId)!;
      // anvil_dumpState answers gzipped JSON; --state reads the plain JSON.
      const dumped = await testClient.dumpState();
      const saved = `${chain.statePath}.saved-${Date.now()}`;
      await writeFile(saved, gunzipSync(hexToBytes(dumped)));
      return saved;
    },
    async stop() {
      await running.stop();
      if (!keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The devnet on ports below the kernel's ephemeral range (free-port.ts): a chain a test stops and restarts
 * gets its port back, where a port the OS picked could be taken meanwhile by any outgoing connection. Ports
 * another test took between the pick and the chains' start are given up for another pick.
 */
async function startOnStablePorts(options: Omit<StartDevnetOptions, 'basePort'>): Promise<RunningDevnet> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevnet({ ...options, basePort: await stablePortRange(DEVNET_CHAINS.length) });
    } catch (error) {
      if (!(error instanceof DevnetPortInUseError) || attempt >= DEVNET_START_ATTEMPTS) throw error;
    }
  }
}

function testChain(entry: DevnetChainEntry, devnet: DevnetFile): TestDevnetChain {
  const chain = devnetChain(entry.chainId, entry.name, entry.rpcUrl);
  return {
    entry,
    publicClient: createDevnetPublicClient(chain),
    testClient: createDevnetTestClient(chain),
    walletFor(role) {
      const account = devnet.accounts[role];
      if (!account) throw new Error(`devnet.json has no ${role} account`);
      return createDevnetWalletClient(chain, toLocalAccount(account));
    },
  };
}
