/**
 * Resolves `switchyard serve` configuration once into a SwitchyardConfig: defaults ← environment
 * (HOST, PORT, SWITCHYARD_DATA_DIR, DATABASE_URL, DATABASE_POOL_SIZE, WEBHOOK_SECRETS_KEY,
 * WEBHOOK_SECRETS_PREVIOUS_KEY) ← config file (JSON) ← CLI flags. A bad field is a
 * ConfigError naming it (`chains[1].rpcUrls: is required`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type StaticDecode, Type } from '@sinclair/typebox';
import { parseGwei } from 'viem/utils';
import type { ChainConfig, SwitchyardConfig } from '../internal/config-types.ts';
import { ConfigError } from '../internal/errors.ts';
import { fetchRefusesPort } from '../internal/fetch-blocked-ports.ts';
import { resolveMetricsListen } from '../metrics/resolve-metrics-listen.ts';
import { resolveWebhookSecretsKeys } from '../webhooks/resolve-secrets-key.ts';
import { InvalidArgumentError } from './errors/rpc-errors.ts';
import { Address, Amount, Bool, ChainId, NonNegativeInt, Opt, Str } from './schemas/wire.ts';
import { compileRequestDecoder } from './validate-request.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const DEFAULT_DATA_DIR = './.switchyard';

/** A larger batch is one long answer for every request in it; hosted endpoints cap theirs lower still. */
const MAX_RPC_BATCH_SIZE = 1000;
/** Connections one process may hold: far above what one process can use, well below any server's limit. */
const MAX_DATABASE_POOL_SIZE = 1000;
const POOL_SIZE_ERROR = `must be a whole number from 1 to ${MAX_DATABASE_POOL_SIZE}`;
/**
 * The shortest step lease (ms): a live worker renews every quarter lease, so below a second a slow database
 * round trip could let a running step's lease lapse.
 */
const MIN_STEP_LEASE_MS = 1_000;
/** A lease over an hour leaves a crashed worker's intents stuck that long: a typo, not a setting. */
const MAX_STEP_LEASE_MS = 3_600_000;

/** A fee ceiling above a million gwei per gas is a typo, not a price (mainnet's worst spikes were in the thousands). */
export const MAX_FEE_CAP_GWEI = 1_000_000;
const GWEI_ERROR = `must be a price in gwei above 0 and at most ${MAX_FEE_CAP_GWEI} (a number or a decimal string, up to 9 decimals)`;

/** Gwei per gas (a number or a decimal string, as an operator writes it), decoded exactly to wei. */
const GweiPrice = Type.Transform(
  Type.Union(
    [
      Type.Number({ exclusiveMinimum: 0, maximum: MAX_FEE_CAP_GWEI }),
      Type.String({ pattern: '^[0-9]{1,7}(\\.[0-9]{1,9})?$' }),
    ],
    { 'x-error': GWEI_ERROR },
  ),
)
  .Decode((value) => {
    // A number's shortest decimal form is what the operator wrote; toFixed(9) never uses an exponent here.
    const wei = parseGwei(typeof value === 'number' ? value.toFixed(9) : value);
    if (wei <= 0n || wei > parseGwei(String(MAX_FEE_CAP_GWEI))) throw new Error(GWEI_ERROR);
    return wei;
  })
  .Encode((wei: bigint) => wei.toString());

const TokenSchema = Type.Object({
  symbol: Str(),
  name: Str(),
  address: Address,
  decimals: NonNegativeInt,
  logoUri: Opt(Str()),
  featured: Opt(Bool),
  supportsBridging: Opt(Bool),
  isUsdReference: Opt(Bool),
  lowWaterMark: Opt(Amount),
});

const ChainSchema = Type.Object({
  chainId: ChainId,
  name: Str(),
  rpcUrls: Type.Array(Str({ pattern: '^(https?|wss?)://', 'x-error': 'must be an http(s) or ws(s) URL' }), {
    minItems: 1,
  }),
  explorerUrl: Opt(Str()),
  nativeCurrency: Type.Object({ name: Str(), symbol: Str(), decimals: NonNegativeInt }),
  isTestnet: Opt(Bool),
  logoUri: Opt(Str()),
  confirmations: Opt(NonNegativeInt),
  destinationBehindFill: Opt(Bool),
  rpcBatchSize: Opt(
    Type.Integer({
      minimum: 1,
      maximum: MAX_RPC_BATCH_SIZE,
      'x-error': `must be a whole number from 1 to ${MAX_RPC_BATCH_SIZE}`,
    }),
  ),
  maxFeePerGasGwei: Opt(GweiPrice),
  tokens: Type.Array(TokenSchema),
  contracts: Type.Record(Type.String(), Address),
});

const TcpPort = Type.Integer({ minimum: 0, maximum: 65535, 'x-error': 'must be a TCP port (0-65535)' });

const FileSchema = Type.Object({
  host: Opt(Str()),
  port: Opt(TcpPort),
  dataDir: Opt(Str()),
  databaseUrl: Opt(Str()),
  databasePoolSize: Opt(
    Type.Integer({ minimum: 1, maximum: MAX_DATABASE_POOL_SIZE, 'x-error': POOL_SIZE_ERROR }),
  ),
  stepLeaseMs: Opt(
    Type.Integer({
      minimum: MIN_STEP_LEASE_MS,
      maximum: MAX_STEP_LEASE_MS,
      'x-error': `must be a whole number of ms from ${MIN_STEP_LEASE_MS} to ${MAX_STEP_LEASE_MS}`,
    }),
  ),
  role: Opt(
    Type.Union([Type.Literal('api'), Type.Literal('worker'), Type.Literal('all')], {
      'x-error': 'must be api, worker or all',
    }),
  ),
  chains: Type.Array(ChainSchema, { minItems: 1 }),
  // `false` (no listener) is taken out before decoding (readConfigFile), so a bad member is named itself.
  metrics: Opt(
    Type.Object(
      { host: Opt(Str()), port: Opt(TcpPort) },
      { 'x-error': 'must be false or { "host"?, "port"? }' },
    ),
  ),
  webhooks: Opt(Type.Object({ allowPrivateTargets: Opt(Bool) })),
  prices: Opt(
    Type.Record(
      Type.String({ pattern: '^[0-9]{1,16}:0x[0-9a-fA-F]{40}$' }),
      Type.Number({ exclusiveMinimum: 0, 'x-error': 'must be a positive USD price' }),
    ),
  ),
});

const decodeFile = compileRequestDecoder(FileSchema);
type ConfigFile = Omit<StaticDecode<typeof FileSchema>, 'chains' | 'metrics'> & {
  metrics?: { host?: string | undefined; port?: number | undefined } | false;
  chains: (Omit<ChainConfig, 'isTestnet' | 'confirmations'> & {
    isTestnet?: boolean;
    confirmations?: number;
    /** Already in wei (GweiPrice decodes it); the resolved chain holds it as maxFeePerGasWei. */
    maxFeePerGasGwei?: bigint;
  })[];
};

/** Confirmations when a chain does not say: one block, the devnet's and most L2s' practical depth. */
const DEFAULT_CONFIRMATIONS = 1;
/**
 * The destination execution behind the fill when a chain does not say: off. On a public mempool the
 * 1-wei-lower tip does not guarantee the order, and each lost race is a reverted transaction's gas; an
 * operator who knows the chain's pool orders by fee (a sequencer, a private node) turns it on.
 */
const DEFAULT_DESTINATION_BEHIND_FILL = false;
/** JSON-RPC batches when a chain does not say: none, since some hosted endpoints refuse or meter them. */
const DEFAULT_RPC_BATCH_SIZE = 1;

export interface ConfigInputs {
  configPath: string;
  env: NodeJS.ProcessEnv;
  flags: { host?: string | undefined; port?: string | undefined; role?: string | undefined };
}

export function resolveConfig({ configPath, env, flags }: ConfigInputs): SwitchyardConfig {
  const file = readConfigFile(configPath);
  const port = flags.port ?? file.port ?? env.PORT ?? DEFAULT_PORT;
  const portNumber = Number(port);
  if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) {
    throw new ConfigError(`port: ${port} is not a TCP port (0-65535)`);
  }
  if (fetchRefusesPort(portNumber)) {
    throw new ConfigError(
      `port: ${port} is a port fetch refuses, so the official client could not reach the API`,
    );
  }
  const role = flags.role ?? file.role ?? 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all')
    throw new ConfigError(`role: must be api, worker or all, not '${role}'`);
  const databaseUrl = file.databaseUrl ?? env.DATABASE_URL;
  const config: SwitchyardConfig = {
    host: flags.host ?? file.host ?? env.HOST ?? DEFAULT_HOST,
    port: portNumber,
    dataDir: resolve(file.dataDir ?? env.SWITCHYARD_DATA_DIR ?? DEFAULT_DATA_DIR),
    role,
    chains: file.chains.map(
      ({ maxFeePerGasGwei, ...c }): ChainConfig =>
        ({
          ...c,
          ...(maxFeePerGasGwei !== undefined && { maxFeePerGasWei: maxFeePerGasGwei }),
          isTestnet: c.isTestnet ?? false,
          confirmations: c.confirmations ?? DEFAULT_CONFIRMATIONS,
          destinationBehindFill: c.destinationBehindFill ?? DEFAULT_DESTINATION_BEHIND_FILL,
          rpcBatchSize: c.rpcBatchSize ?? DEFAULT_RPC_BATCH_SIZE,
        }) as ChainConfig,
    ),
  };
  if (databaseUrl) config.databaseUrl = databaseUrl;
  const poolSize = file.databasePoolSize ?? poolSizeFromEnv(env.DATABASE_POOL_SIZE);
  if (poolSize !== undefined) config.databasePoolSize = poolSize;
  if (file.prices) config.prices = file.prices;
  if (file.stepLeaseMs !== undefined) config.stepLeaseMs = file.stepLeaseMs;
  const metrics = resolveMetricsListen(env, file.metrics);
  if (metrics) config.metrics = metrics;
  if (file.webhooks) config.webhooks = { allowPrivateTargets: file.webhooks.allowPrivateTargets ?? false };
  // The environment only, like every other secret: a config file is copied around and checked in.
  const { key, previousKey } = resolveWebhookSecretsKeys(env);
  if (key) config.webhookSecretsKey = key;
  if (previousKey) config.webhookSecretsPreviousKey = previousKey;
  const ids = new Set<number>();
  config.chains.forEach((c, i) => {
    if (ids.has(c.chainId)) throw new ConfigError(`chains[${i}].chainId: ${c.chainId} is listed twice`);
    ids.add(c.chainId);
    for (const [j, url] of c.rpcUrls.entries()) checkRpcPort(url, `chains[${i}].rpcUrls[${j}]`);
  });
  return config;
}

/** An http(s) RPC on a port fetch refuses fails every call with "bad port"; say so at start-up instead. */
function checkRpcPort(url: string, field: string): void {
  if (!URL.canParse(url)) throw new ConfigError(`${field}: '${url}' is not a URL`);
  const { protocol, port } = new URL(url);
  if ((protocol === 'http:' || protocol === 'https:') && port !== '' && fetchRefusesPort(Number(port))) {
    throw new ConfigError(`${field}: port ${port} is one fetch refuses, so no RPC call could reach it`);
  }
}

function poolSizeFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > MAX_DATABASE_POOL_SIZE) {
    throw new ConfigError(`DATABASE_POOL_SIZE: ${POOL_SIZE_ERROR}, not '${value}'`);
  }
  return size;
}

function readConfigFile(path: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  const metricsOff =
    typeof raw === 'object' && raw !== null && (raw as { metrics?: unknown }).metrics === false;
  try {
    if (!metricsOff) return decodeFile(raw) as ConfigFile;
    const { metrics: _off, ...rest } = raw as Record<string, unknown>;
    return { ...(decodeFile(rest) as ConfigFile), metrics: false };
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new ConfigError(`config file ${path}: ${error.message}`);
    throw error;
  }
}
