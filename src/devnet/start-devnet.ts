/**
 * Starts the local multi-chain devnet: three anvil chains, every contract deployed, pools seeded,
 * roles funded, and `<dataDir>/devnet.json` written. Returns once everything is ready.
 */
import { mkdir } from 'node:fs/promises';
import type { ChainConfig } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import { type DevnetAccount, type DevnetAccounts, devnetAccounts, toLocalAccount } from './accounts.ts';
import {
  createDevnetPublicClient,
  createDevnetTestClient,
  createDevnetWalletClient,
  type DevnetChainClients,
  devnetChain,
} from './chain-clients.ts';
import { DEFAULT_API_URL, DEFAULT_BASE_PORT, DEVNET_CHAINS, type KeptStates } from './constants.ts';
import {
  type DevnetChainEntry,
  type DevnetFile,
  devnetChainConfigs,
  writeDevnetFile,
} from './devnet-file.ts';
import { resetDevnet } from './reset-devnet.ts';
import { setupChain } from './setup-chain.ts';
import { type RunningChain, startChains } from './start-chains.ts';
import { loadUniswapArtifacts } from './uniswap-artifacts.ts';

export interface StartDevnetOptions {
  /** Holds `chains/<chainId>.json` (anvil state) and `devnet.json`. */
  dataDir: string;
  /** Wipe the saved chain state first and set everything up again. */
  reset?: boolean;
  /** Seconds between blocks; omitted means automine (one block per transaction). */
  blockTime?: number;
  /** Chain i listens on basePort + i (default 18545); 0 picks free ports (tests). */
  basePort?: number;
  /**
   * Past blocks whose state each chain keeps for calls at them (DEVNET_KEPT_STATES by default); 'all' keeps
   * every block's, for a caller that reads balances far back (the resilience tests' conservation audit).
   */
  keptStates?: KeptStates;
  /** Written into devnet.json as the API's address. */
  apiUrl?: string;
  /** The API's devnet access key; the API fills it later through `setAccessKey`. Empty until then. */
  accessKey?: string;
  log: Logger;
}

/** What the service beside the devnet writes into devnet.json once it listens. */
export interface DevnetService {
  accessKey: string;
  apiUrl: string;
  explorerUrl: string;
  metricsUrl?: string | undefined;
}

export interface RunningDevnet {
  devnet: DevnetFile;
  /** Path of the devnet.json that was written. */
  devnetFile: string;
  /** The server's view of the chains. */
  chainConfigs: ChainConfig[];
  /** Milliseconds from the call to ready. */
  readyMs: number;
  /** Hook for the API: records its access key (and its URL, once listening) in devnet.json. */
  setAccessKey(accessKey: string, apiUrl?: string): Promise<void>;
  /** Hook for the running service: records its key and where it listens (API, explorer, metrics). */
  recordService(service: DevnetService): Promise<void>;
  /**
   * The chain processes, for tests that stop and restart one (test/harness/devnet.ts). `stop()` stops
   * whatever `anvil` each entry holds when it is called, so a restarted chain is stopped too.
   */
  chains: RunningChain[];
  /** Resolves if a chain process dies while the devnet is meant to be running. */
  chainExited: Promise<{ chainId: number; code: number | null }>;
  /** Stops every chain (each writes its state file on the way out). */
  stop(): Promise<void>;
}

export async function startDevnet(options: StartDevnetOptions): Promise<RunningDevnet> {
  const started = Date.now();
  const { dataDir, log } = options;
  if (options.reset) {
    await resetDevnet(dataDir);
    log.info('reset: saved chain state removed', { dataDir });
  }
  await mkdir(dataDir, { recursive: true });

  const chains = await startChains({
    dataDir,
    specs: DEVNET_CHAINS,
    basePort: options.basePort ?? DEFAULT_BASE_PORT,
    ...(options.keptStates !== undefined && { keptStates: options.keptStates }),
    log,
  });
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await Promise.all(chains.map((chain) => chain.anvil.stop()));
  };
  try {
    const accounts = devnetAccounts();
    const entries = await setUpChains(chains, accounts, options);
    const devnet: DevnetFile = {
      apiUrl: options.apiUrl ?? DEFAULT_API_URL,
      accessKey: options.accessKey ?? '',
      chains: entries,
      accounts,
    };
    const devnetFile = await writeDevnetFile(dataDir, devnet);
    const chainExited = watchForChainExit(chains, () => stopping);
    return {
      devnet,
      devnetFile,
      chainConfigs: devnetChainConfigs(devnet),
      readyMs: Date.now() - started,
      async setAccessKey(accessKey, apiUrl) {
        devnet.accessKey = accessKey;
        if (apiUrl) devnet.apiUrl = apiUrl;
        await writeDevnetFile(dataDir, devnet);
      },
      async recordService({ accessKey, apiUrl, explorerUrl, metricsUrl }) {
        Object.assign(devnet, { accessKey, apiUrl, explorerUrl });
        if (metricsUrl) devnet.metricsUrl = metricsUrl;
        else delete devnet.metricsUrl;
        await writeDevnetFile(dataDir, devnet);
      },
      chains,
      chainExited,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * All chains are set up in parallel; each runs its own steps in order. Waits for every chain even when
 * one fails, so that no setup is still talking to a chain while the chains are being stopped.
 */
async function setUpChains(chains: RunningChain[], accounts: DevnetAccounts, options: StartDevnetOptions) {
  const uniswap = loadUniswapArtifacts();
  const results = await Promise.allSettled(
    chains.map(async (chain) => {
      const clients = chainClients(chain, accounts.deployer);
      const log = options.log.child({ chainId: chain.spec.chainId });
      const entry = await setupChain({
        spec: chain.spec,
        rpcUrl: chain.anvil.rpcUrl,
        clients,
        accounts,
        uniswap,
        log,
      });
      if (options.blockTime !== undefined) await startIntervalMining(clients, options.blockTime);
      return entry;
    }),
  );
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return results.map((result) => (result as PromiseFulfilledResult<DevnetChainEntry>).value);
}

/** Resolves when a chain process exits while nobody asked it to stop. */
function watchForChainExit(chains: RunningChain[], isStopping: () => boolean): RunningDevnet['chainExited'] {
  return new Promise((resolve) => {
    for (const chain of chains) {
      chain.anvil.process.once('exit', (code) => {
        if (!isStopping()) resolve({ chainId: chain.spec.chainId, code });
      });
    }
  });
}

function chainClients(chain: RunningChain, deployer: DevnetAccount): DevnetChainClients {
  const viemChain = devnetChain(chain.spec.chainId, chain.spec.name, chain.anvil.rpcUrl);
  return {
    publicClient: createDevnetPublicClient(viemChain),
    walletClient: createDevnetWalletClient(viemChain, toLocalAccount(deployer)),
    testClient: createDevnetTestClient(viemChain),
  };
}

/** Setup always runs under automine (fast); a requested block time takes over once it is done. */
async function startIntervalMining(clients: DevnetChainClients, blockTimeSeconds: number): Promise<void> {
  await clients.testClient.setAutomine(false);
  await clients.testClient.setIntervalMining({ interval: blockTimeSeconds });
}
