/**
 * `switchyard config init --rpc-url URL … --out FILE [--token …] [--price …] [--max-fee-gwei …] [--low-water …]`:
 * writes a complete `serve` config. Each chain's id is read from its RPC; known public networks get their
 * names, explorer, confirmations, main tokens and Uniswap V2 and V3 contracts from
 * data/public-networks.json; our contracts are found at their deterministic addresses and must hold this
 * build's code. No secret is written.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { planSwitchyardDeployment } from '../../contracts/deployment-plan.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../../intents/plan/constants.ts';
import { createLogger } from '../../internal/logger.ts';
import { buildServeConfig } from '../../operator/config-init/build-serve-config.ts';
import {
  parseLowWaterFlag,
  parseMaxFeeFlag,
  parsePriceFlag,
  parseTokenFlag,
} from '../../operator/config-init/parse-flags.ts';
import { readChainFacts } from '../../operator/config-init/read-chain-facts.ts';
import { redactRpcUrl } from '../../operator/connect-chain.ts';
import { attesterFromEnv } from '../../operator/deploy-keys-from-env.ts';
import { loadPublicNetworks } from '../../operator/public-networks.ts';
import { formatTable } from '../format-table.ts';

const USAGE = `usage: switchyard config init --rpc-url URL [--rpc-url URL …] --out FILE
         [--token SYMBOL=ADDRESS@CHAINID …] [--price SYMBOL=USD …]
         [--max-fee-gwei CHAINID=GWEI …] [--low-water SYMBOL@CHAINID=AMOUNT …] [--force]

Writes a complete config for 'switchyard serve --config FILE'. For each RPC URL it reads the chain id;
known public networks (Ethereum, Base, Arbitrum One, OP Mainnet, Polygon PoS and their Sepolia/Amoy
testnets) get their name, native currency, explorer, confirmations, USDC/USDT/WETH and native wrapper,
and Uniswap V2 and V3 contracts from data/public-networks.json. Our contracts are found at their
deterministic addresses (run 'switchyard deploy' first) and must hold this build's code.

  --rpc-url URL                    a chain to serve (repeat for each chain)
  --out FILE                       where to write the config (refuses to overwrite without --force)
  --token SYMBOL=ADDRESS@CHAINID   a token to list on a chain (repeat); W<native symbol> (e.g. WETH)
                                   is also taken as the chain's native wrapper
  --price SYMBOL=USD               a fixed USD price for every token with that symbol (repeat); chains
                                   without Uniswap pools need one for each token
  --max-fee-gwei CHAINID=GWEI      the most the service pays per gas on that chain (repeat per chain):
                                   the chain's maxFeePerGasGwei
  --low-water SYMBOL@CHAINID=AMOUNT
                                   the solver's low-water mark for a token on a chain, in whole tokens
                                   (repeat): written in base units as the token's lowWaterMark
  --force                          overwrite FILE

Environment: SWITCHYARD_ATTESTER_ADDRESS or SWITCHYARD_ATTESTER_KEY (our addresses depend on it).
The file holds no secret: keys stay in the environment, DATABASE_URL too.
`;

interface Values {
  'rpc-url'?: string[];
  out?: string;
  token?: string[];
  price?: string[];
  'max-fee-gwei'?: string[];
  'low-water'?: string[];
  force?: boolean;
  help?: boolean;
}

export async function run(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === undefined) return usageError('an action is required: init');
  if (action === '--help' || action === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (action !== 'init') return usageError(`unknown action '${action}'`);
  let values: Values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        'rpc-url': { type: 'string', multiple: true },
        out: { type: 'string' },
        token: { type: 'string', multiple: true },
        price: { type: 'string', multiple: true },
        'max-fee-gwei': { type: 'string', multiple: true },
        'low-water': { type: 'string', multiple: true },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const rpcUrls = values['rpc-url'] ?? [];
  if (rpcUrls.length === 0) return usageError('--rpc-url URL is required (once per chain)');
  if (!values.out) return usageError('--out FILE is required');
  if (existsSync(values.out) && !values.force) {
    process.stderr.write(`switchyard config init: ${values.out} exists; pass --force to overwrite it\n`);
    return 1;
  }
  return init({ ...values, rpcUrls, out: values.out });
}

async function init(values: Values & { rpcUrls: string[]; out: string }): Promise<number> {
  const log = createLogger();
  const tokenFlags = (values.token ?? []).map(parseTokenFlag);
  const priceFlags = (values.price ?? []).map(parsePriceFlag);
  const maxFees = (values['max-fee-gwei'] ?? []).map(parseMaxFeeFlag);
  const lowWaters = (values['low-water'] ?? []).map(parseLowWaterFlag);
  const attester = attesterFromEnv(process.env);
  const ours = planSwitchyardDeployment({
    attester,
    graceSeconds: DEFAULT_SETTLEMENT_GRACE_SECONDS,
  }).contracts;
  const registry = loadPublicNetworks();
  const warnings: string[] = [];
  const warn = (message: string, fields?: Record<string, unknown>) => {
    warnings.push(message);
    log.warn(message, fields);
  };
  log.info('reading chains', { chains: values.rpcUrls.map(redactRpcUrl), attester });
  const facts = await Promise.all(
    values.rpcUrls.map((rpcUrl) => readChainFacts({ rpcUrl, registry, ours, tokenFlags, warn })),
  );
  const unknownChain = tokenFlags.find((f) => !facts.some((c) => c.chainId === f.chainId));
  if (unknownChain) {
    return usageError(
      `--token ${unknownChain.symbol}: chain ${unknownChain.chainId} is not one of the --rpc-url chains`,
    );
  }
  const file = buildServeConfig(facts, { prices: priceFlags, maxFees, lowWaters }, warn);
  // An RPC URL may carry a provider's API key: the file is the service user's alone.
  writeFileSync(values.out, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  log.info('config written', { file: values.out, chains: facts.map((f) => f.chainId) });
  const rows = facts.map((f) => [
    String(f.chainId),
    f.name,
    f.network ? 'registry' : 'not in registry',
    f.tokens.map((t) => t.symbol).join(' '),
  ]);
  process.stdout.write(
    `wrote ${values.out}:\n${formatTable(rows)}\n` +
      (warnings.length > 0 ? `${warnings.length} warning(s): review the file before serving\n` : ''),
  );
  return 0;
}

function usageError(message: string): number {
  process.stderr.write(`switchyard config init: ${message}\n\n${USAGE}`);
  return 2;
}
