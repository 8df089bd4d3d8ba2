/** Flags shared by `switchyard devnet` and `switchyard start`, resolved once with the environment. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../internal/errors.ts';
import { fetchRefusedPortIn } from '../internal/fetch-blocked-ports.ts';
import {
  DEFAULT_BASE_PORT,
  DEFAULT_DATA_DIR,
  DEVNET_CHAINS,
  DEVNET_KEPT_STATES,
  type KeptStates,
} from './constants.ts';

/** The API's address when neither HOST nor PORT is set (DESIGN §1). */
const DEFAULT_API_HOST = '127.0.0.1';
const DEFAULT_API_PORT = 8787;
/** Most block states --kept-states may ask anvil to hold in memory; beyond it, 'all' is the honest ask. */
const MAX_KEPT_STATES = 1_000_000;
/** Highest TCP port; the last chain needs basePort + chainCount - 1 to fit below it. */
const MAX_PORT = 65_535;

export interface DevnetCliOptions {
  dataDir: string;
  reset: boolean;
  blockTime?: number;
  basePort: number;
  /** Past blocks whose state each chain keeps for calls at them; 'all' keeps every block's. */
  keptStates: KeptStates;
  apiUrl: string;
}

export type ParsedDevnetArgs = { options: DevnetCliOptions } | { help: string };

export function devnetUsage(command: string): string {
  const last = DEFAULT_BASE_PORT + DEVNET_CHAINS.length - 1;
  return `usage: switchyard ${command} [options]

Starts ${DEVNET_CHAINS.length} local anvil chains (${DEVNET_CHAINS.map((c) => `${c.name} ${c.chainId}`).join(', ')}),
deploys every contract, seeds the Uniswap V2 pools, funds the devnet accounts and writes
<data-dir>/devnet.json. Chain state is kept across restarts. Ctrl-C stops the chains and saves their state.

options:
  --data-dir <dir>     where chain state and devnet.json live (default ${DEFAULT_DATA_DIR},
                       or $SWITCHYARD_DATA_DIR)
  --reset              forget the saved chain state and set everything up from scratch
  --block-time <sec>   mine a block every <sec> seconds instead of one per transaction (automine)
  --base-port <port>   chain i listens on <port>+i (default ${DEFAULT_BASE_PORT}, i.e. ${DEFAULT_BASE_PORT}–${last});
                       0 lets the system pick free ports
  --kept-states <n|all>  keep the state of the last <n> blocks for calls at past blocks (default
                       ${DEVNET_KEPT_STATES}); 'all' keeps every block's, at a cost that grows with the chain
  -h, --help           show this help

The keys in devnet.json are anvil's public test keys: never use them on a real network.
`;
}

export function parseDevnetArgs(command: string, argv: string[], env: NodeJS.ProcessEnv): ParsedDevnetArgs {
  const { values } = parseFlags(command, argv);
  if (values.help) return { help: devnetUsage(command) };
  const blockTime =
    values['block-time'] === undefined
      ? undefined
      : parseInteger('--block-time', values['block-time'], 1, 3600);
  const basePort =
    values['base-port'] === undefined
      ? DEFAULT_BASE_PORT
      : parseInteger('--base-port', values['base-port'], 0, MAX_PORT - DEVNET_CHAINS.length + 1);
  const refused = basePort === 0 ? undefined : fetchRefusedPortIn(basePort, DEVNET_CHAINS.length);
  if (refused !== undefined) {
    throw new ConfigError(
      `--base-port ${basePort} puts a chain on port ${refused}, which fetch (and so viem and the client) refuses to connect to; pick another base port`,
      { details: { flag: '--base-port', actual: basePort, refusedPort: refused } },
    );
  }
  const keptStates =
    values['kept-states'] === undefined
      ? DEVNET_KEPT_STATES
      : values['kept-states'] === 'all'
        ? 'all'
        : parseInteger('--kept-states', values['kept-states'], 1, MAX_KEPT_STATES);
  return {
    options: {
      dataDir: path.resolve(values['data-dir'] ?? env.SWITCHYARD_DATA_DIR ?? DEFAULT_DATA_DIR),
      reset: values.reset ?? false,
      blockTime,
      basePort,
      keptStates,
      apiUrl: `http://${env.HOST ?? DEFAULT_API_HOST}:${env.PORT ?? DEFAULT_API_PORT}`,
    },
  };
}

function parseFlags(command: string, argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        'data-dir': { type: 'string' },
        reset: { type: 'boolean', default: false },
        'block-time': { type: 'string' },
        'base-port': { type: 'string' },
        'kept-states': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (cause) {
    // node's own message names the flag ("Unknown option '--x'"); keep it, add where to look.
    throw new ConfigError(`${(cause as Error).message}; see switchyard ${command} --help`, { cause });
  }
}

function parseInteger(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new ConfigError(`${flag} must be a whole number from ${min} to ${max}, got '${text}'`, {
      details: { flag, expected: `${min}..${max}`, actual: text },
    });
  }
  return value;
}
