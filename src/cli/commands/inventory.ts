/**
 * `switchyard inventory --config FILE`: the solver's inventory per chain and token (src/solver/
 * read-inventory-report.ts), read from the chains of a serve config and the store `serve` uses
 * (DATABASE_URL, or the SQLite file in the data dir). The solver is SWITCHYARD_SOLVER_KEY's address, or
 * `--solver ADDRESS`. Exits 1 when a chain could not be read.
 */
import { parseArgs } from 'node:util';
import { type Address, formatUnits, isAddress } from 'viem';
import { resolveConfig } from '../../api/resolve-config.ts';
import { createChainClients } from '../../chains/create-chain-clients.ts';
import { signingAccount } from '../../chains/signing-account.ts';
import { ConfigError } from '../../internal/errors.ts';
import { createLogger } from '../../internal/logger.ts';
import { type InventoryLine, readInventoryReport } from '../../solver/read-inventory-report.ts';
import { createStore } from '../../store/create-store.ts';
import { resolveStoreLocation } from '../../store/store-location.ts';

const USAGE = `usage: switchyard inventory --config FILE [--solver ADDRESS] [--json]

Prints, per chain and token the solver fills (bridgeable ERC-20s, and any token with a lowWaterMark):
  BALANCE    what the solver holds on the chain
  HELD       what committed intents whose fill has not landed will take from it
  OWED       what filled orders not yet settled will repay it on this chain
  AVAILABLE  BALANCE - HELD: the most a new quote can ask the solver to fill
  LOW-WATER  the token's lowWaterMark in the config; STATUS is LOW while AVAILABLE is below it
Amounts are in whole tokens (--json: base units, as decimal strings).

The chains come from FILE (the serve config); the store from DATABASE_URL, else the SQLite file in the
config's dataDir (else SWITCHYARD_DATA_DIR, else ./.switchyard). The solver is the address of
SWITCHYARD_SOLVER_KEY, or --solver.
`;

export async function run(argv: string[]): Promise<number> {
  let values: { config?: string; solver?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        solver: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`switchyard inventory: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!values.config) {
    process.stderr.write(`switchyard inventory: --config FILE is required\n\n${USAGE}`);
    return 2;
  }
  const config = resolveConfig({ configPath: values.config, env: process.env, flags: {} });
  const solver = solverAddress(values.solver, process.env.SWITCHYARD_SOLVER_KEY);
  const location = config.databaseUrl
    ? resolveStoreLocation({ env: { DATABASE_URL: config.databaseUrl } })
    : resolveStoreLocation({ dataDir: config.dataDir, env: {} });
  process.stderr.write(`solver ${solver}, ${config.chains.length} chains, store ${location.description}\n`);
  const store = await createStore({ ...location, log: createLogger({ level: 'warn' }) });
  try {
    const clients = createChainClients(config.chains, { fetchFn: fetch, batch: false });
    const lines = await readInventoryReport({
      chains: config.chains,
      store,
      getClient: (chainId) => clients.get(chainId)!,
      solver,
    });
    process.stdout.write(values.json ? `${JSON.stringify(asJson(solver, lines), null, 2)}\n` : table(lines));
    for (const line of lines.filter((l) => l.error)) {
      process.stderr.write(
        `switchyard inventory: chain ${line.chainId} (${line.chainName}): ${line.error}\n`,
      );
    }
    return lines.some((l) => l.error) ? 1 : 0;
  } finally {
    await store.close();
  }
}

function solverAddress(flag: string | undefined, key: string | undefined): Address {
  if (flag !== undefined) {
    if (!isAddress(flag, { strict: false })) throw new ConfigError(`--solver: '${flag}' is not an address`);
    return flag as Address;
  }
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new ConfigError(
      'the solver is unknown: set SWITCHYARD_SOLVER_KEY (a 0x-prefixed 32-byte private key) or pass --solver ADDRESS',
    );
  }
  return signingAccount(key as `0x${string}`).address;
}

function table(lines: InventoryLine[]): string {
  const amount = (line: InventoryLine, value: bigint | undefined) =>
    value === undefined ? '-' : formatUnits(value, line.token.decimals);
  const rows = [
    ['CHAIN', 'TOKEN', 'BALANCE', 'HELD', 'OWED', 'AVAILABLE', 'LOW-WATER', 'STATUS'],
    ...lines.map((l) => [
      `${l.chainId} ${l.chainName}`,
      l.token.symbol,
      amount(l, l.balance),
      amount(l, l.held),
      amount(l, l.owed),
      amount(l, l.available),
      amount(l, l.lowWaterMark),
      l.error ? 'UNREADABLE' : l.low ? 'LOW' : 'ok',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map(
      (r) =>
        `${r
          .map((cell, c) => cell.padEnd(widths[c]!))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}

function asJson(solver: Address, lines: InventoryLine[]) {
  const text = (value: bigint | undefined) => (value === undefined ? null : value.toString());
  return {
    solver,
    tokens: lines.map((l) => ({
      chainId: l.chainId,
      chainName: l.chainName,
      symbol: l.token.symbol,
      address: l.token.address,
      decimals: l.token.decimals,
      balance: text(l.balance),
      held: text(l.held),
      owed: text(l.owed),
      available: text(l.available),
      lowWaterMark: text(l.lowWaterMark),
      low: l.low,
      ...(l.error && { error: l.error }),
    })),
  };
}
