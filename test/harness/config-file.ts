/**
 * `switchyard serve` configuration files for tests and benchmarks: a devnet chain as the file spells it, a chain
 * entry with placeholder contract addresses, and a file written, resolved as `serve` resolves it, and removed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../src/api/resolve-config.ts';
import type { ChainConfig, SwitchyardConfig } from '../../src/internal/config-types.ts';

/** Any address will do: resolveConfig checks the form, never the chain. */
const PLACEHOLDER_ADDRESS = '0x0000000000000000000000000000000000000001';

/** A chain entry of a config file; `extra` adds or overrides members. */
export function configChain(chainId: number, extra: Record<string, unknown> = {}) {
  return {
    chainId,
    name: `chain ${chainId}`,
    rpcUrls: ['http://127.0.0.1:8545'],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    tokens: [],
    contracts: {
      intentFactory: PLACEHOLDER_ADDRESS,
      intentAccountImplementation: PLACEHOLDER_ADDRESS,
      originSettler: PLACEHOLDER_ADDRESS,
      destinationSettler: PLACEHOLDER_ADDRESS,
      fillVerifier: PLACEHOLDER_ADDRESS,
    },
    ...extra,
  };
}

/** Writes `file` as a config file and resolves it with `env` (no flags), as `serve` does at start. */
export function resolveConfigFile(
  file: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
): SwitchyardConfig {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
  try {
    const configPath = join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify(file));
    return resolveConfig({ configPath, env, flags: {} });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A resolved chain as the serve config file spells it (resolve-config.ts): the fields it knows, no undefined contracts. */
export function toFileChain(c: ChainConfig) {
  return {
    chainId: c.chainId,
    name: c.name,
    rpcUrls: c.rpcUrls,
    nativeCurrency: c.nativeCurrency,
    isTestnet: c.isTestnet,
    confirmations: c.confirmations,
    destinationBehindFill: c.destinationBehindFill,
    rpcBatchSize: c.rpcBatchSize,
    tokens: c.tokens,
    contracts: Object.fromEntries(Object.entries(c.contracts).filter(([, v]) => v !== undefined)),
  };
}
