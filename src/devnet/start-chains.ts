/**
 * Starts one anvil per devnet chain, each with its state file under `<dataDir>/chains/`. Chains are
 * started in order so that a taken port is reported for the first chain that needs it, and the chains
 * already running are stopped before the error is thrown.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type AnvilInstance, type AnvilOptions, startAnvil } from '../chains/anvil.ts';
import { PortInUseError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';
import {
  CHAINS_DIR_NAME,
  DEVNET_HOST,
  DEVNET_KEPT_STATES,
  type DevnetChainSpec,
  type KeptStates,
  STATE_INTERVAL_SECONDS,
} from './constants.ts';
import { DevnetPortInUseError } from './errors.ts';

export interface StartChainsOptions {
  dataDir: string;
  specs: readonly DevnetChainSpec[];
  /** Chain i listens on basePort + i; 0 lets the OS pick a free port for every chain (tests). */
  basePort: number;
  /** Past blocks whose state each chain keeps (default DEVNET_KEPT_STATES); 'all' keeps every block's. */
  keptStates?: KeptStates;
  log: Logger;
}

export interface RunningChain {
  spec: DevnetChainSpec;
  anvil: AnvilInstance;
  statePath: string;
  /** What the chain's anvil was started with: a test restarting it passes the same (with the port it got). */
  anvilOptions: AnvilOptions;
}

export function chainStatePath(dataDir: string, chainId: number): string {
  return path.join(dataDir, CHAINS_DIR_NAME, `${chainId}.json`);
}

export async function startChains(options: StartChainsOptions): Promise<RunningChain[]> {
  await mkdir(path.join(options.dataDir, CHAINS_DIR_NAME), { recursive: true });
  const running: RunningChain[] = [];
  try {
    for (const [index, spec] of options.specs.entries()) {
      running.push(await startOneChain(options, spec, index));
    }
    return running;
  } catch (error) {
    await Promise.all(running.map((chain) => chain.anvil.stop()));
    throw error;
  }
}

async function startOneChain(options: StartChainsOptions, spec: DevnetChainSpec, index: number) {
  const port = options.basePort === 0 ? 0 : options.basePort + index;
  const statePath = chainStatePath(options.dataDir, spec.chainId);
  const started = Date.now();
  options.log.info('starting chain…', { chainId: spec.chainId, name: spec.name, port });
  try {
    // Always automine here: setup sends dozens of transactions; interval mining is switched on afterwards.
    const kept = options.keptStates ?? DEVNET_KEPT_STATES;
    const anvilOptions: AnvilOptions = {
      chainId: spec.chainId,
      host: DEVNET_HOST,
      port,
      statePath,
      stateIntervalSeconds: STATE_INTERVAL_SECONDS,
      ...(kept !== 'all' && { keptStates: kept }),
    };
    const anvil = await startAnvil(anvilOptions);
    options.log.info('chain started', {
      chainId: spec.chainId,
      rpcUrl: anvil.rpcUrl,
      ms: Date.now() - started,
    });
    return { spec, anvil, statePath, anvilOptions };
  } catch (error) {
    if (error instanceof PortInUseError) {
      throw new DevnetPortInUseError(
        error.host,
        error.port,
        spec.name,
        options.basePort,
        options.specs.length,
      );
    }
    throw error;
  }
}
