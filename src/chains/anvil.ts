/**
 * Starts and stops anvil processes (the binary shipped in `@foundry-rs/anvil-linux-amd64`).
 * Readiness is taken from anvil's own "Listening on" line, never from polling the port, so a stale
 * anvil on the same port can never be mistaken for ours; a port held by someone else is a
 * PortInUseError.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PortInUseError, SwitchyardError } from '../internal/errors.ts';

/** anvil prints "Listening on" within ~100 ms here; 20 s covers loading a large state file on a busy machine. */
const ANVIL_START_TIMEOUT_MS = 20_000;
/** After SIGTERM anvil writes its state file (if any); give it this long before SIGKILL. */
const ANVIL_STOP_GRACE_MS = 5_000;
/**
 * The fork our contracts are compiled for (scripts/build-contracts.ts). anvil 1.7.1's own default, prague,
 * also costs more with every block: it rebuilds the EIP-2935 history contract's storage trie, which grows
 * by one slot a block, at each block it mines (measured here: an empty block 0.3 ms at the start, 4.7 ms
 * 3,000 blocks later; 0.04 ms flat at cancun with history pruned). docs/devnet.md, "Hardfork".
 */
export const ANVIL_HARDFORK = 'cancun';

export interface AnvilOptions {
  chainId: number;
  host?: string;
  /** 0 lets the OS pick a free port (the default, for tests). */
  port?: number;
  /** Seconds between blocks; omitted means automine (a block per transaction). */
  blockTime?: number;
  /** File that holds the chain state across restarts (anvil `--state`). */
  statePath?: string;
  /** Write the state file every N seconds as well as on exit, so a hard kill loses at most N seconds. */
  stateIntervalSeconds?: number;
  /**
   * Keep the state of only this many recent blocks, in memory (anvil `--prune-history N`): calls at older
   * blocks fail, and each block costs the same however long the chain. Omitted: anvil keeps every block's
   * state (the older ones out of memory), and each block costs more than the one before (docs/devnet.md).
   */
  keptStates?: number;
  /** The EVM fork to run; ANVIL_HARDFORK unless a test needs another. */
  hardfork?: string;
  /** Extra arguments passed through to anvil. */
  extraArgs?: string[];
}

export interface AnvilInstance {
  readonly chainId: number;
  readonly host: string;
  readonly port: number;
  readonly rpcUrl: string;
  readonly process: ChildProcess;
  /** Stops the process (SIGTERM, then SIGKILL after a grace period); resolves when it has exited. */
  stop(): Promise<void>;
}

export function anvilBinaryPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json');
  return path.join(path.dirname(pkg), 'bin', 'anvil');
}

export async function startAnvil(options: AnvilOptions): Promise<AnvilInstance> {
  const host = options.host ?? '127.0.0.1';
  const args = ['--host', host, '--port', String(options.port ?? 0), '--chain-id', String(options.chainId)];
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.statePath) args.push('--state', options.statePath);
  if (options.stateIntervalSeconds) args.push('--state-interval', String(options.stateIntervalSeconds));
  if (options.keptStates !== undefined) args.push('--prune-history', String(options.keptStates));
  args.push('--hardfork', options.hardfork ?? ANVIL_HARDFORK);
  args.push(...(options.extraArgs ?? []));

  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForListening(child, host, options.port ?? 0);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  // Keep draining output so the pipes never fill and block anvil.
  child.stdout?.resume();
  child.stderr?.resume();

  return {
    chainId: options.chainId,
    host,
    port,
    rpcUrl: `http://${host}:${port}`,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), ANVIL_STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

function waitForListening(child: ChildProcess, host: string, requestedPort: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new SwitchyardError(`anvil did not start within ${ANVIL_START_TIMEOUT_MS} ms`, {
          details: { output },
        }),
      );
    }, ANVIL_START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on [^\s:]+:(\d+)/.exec(output);
      if (match) {
        cleanup();
        resolve(Number(match[1]));
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      if (/Address already in use/i.test(output)) reject(new PortInUseError(host, requestedPort, 'anvil'));
      else
        reject(
          new SwitchyardError(`anvil exited with code ${code} before it was ready`, { details: { output } }),
        );
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new SwitchyardError(`anvil could not be started: ${error.message}`, { cause: error }));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
