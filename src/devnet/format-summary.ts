/** The text printed once the devnet is ready: chains, contract addresses, where devnet.json is. */
import type { RunningDevnet } from './start-devnet.ts';

/** The first stdout line of a ready devnet; scripts and tests wait for it. */
export const READY_LINE_PREFIX = 'Switchyard devnet ready';

export function formatDevnetSummary(running: RunningDevnet): string {
  const { devnet } = running;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const sinceLaunch = seconds(process.uptime() * 1000);
  const lines = [
    `${READY_LINE_PREFIX} in ${seconds(running.readyMs)} (${sinceLaunch} since launch)`,
    '',
    'chains:',
  ];
  for (const chain of devnet.chains) {
    lines.push(`  ${String(chain.chainId).padEnd(9)} ${chain.name.padEnd(18)} ${chain.rpcUrl}`);
  }
  lines.push('', 'tokens and contracts:');
  for (const [name, where] of addressTable(devnet.chains)) {
    lines.push(`  ${name.padEnd(28)} ${where}`);
  }
  lines.push(
    '',
    `devnet.json:  ${running.devnetFile}`,
    `demo user:    ${devnet.accounts.user.address} (key in devnet.json: anvil's public test key, never use it elsewhere)`,
    'Press Ctrl-C to stop; chain state is saved and reused on the next start (--reset starts clean).',
    '',
  );
  return lines.join('\n');
}

/** One row per token/contract; chains are named only where a contract is not on all of them. */
function addressTable(chains: RunningDevnet['devnet']['chains']): [string, string][] {
  const rows = new Map<string, Map<string, string[]>>();
  const add = (name: string, address: string, chainName: string) => {
    const byAddress = rows.get(name) ?? new Map<string, string[]>();
    byAddress.set(address, [...(byAddress.get(address) ?? []), chainName]);
    rows.set(name, byAddress);
  };
  for (const chain of chains) {
    for (const [symbol, address] of Object.entries(chain.tokens)) add(symbol, address, chain.name);
    for (const [name, address] of Object.entries(chain.contracts))
      if (address) add(name, address, chain.name);
  }
  return [...rows].flatMap(([name, byAddress]) =>
    [...byAddress].map(([address, names]): [string, string] => [
      name,
      names.length === chains.length ? address : `${address} (${names.join(', ')})`,
    ]),
  );
}
