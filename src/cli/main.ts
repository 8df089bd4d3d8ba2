/**
 * The `switchyard` command. Each sub-command lives in its own file under `commands/` and is loaded
 * only when asked for, so `switchyard keys list` does not load the chain tooling.
 */
import { SwitchyardError } from '../internal/errors.ts';

type CommandModule = { run(argv: string[]): Promise<number> };

const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  devnet: {
    summary: 'start the local multi-chain devnet (anvil chains, contracts, pools)',
    load: () => import('./commands/devnet.ts'),
  },
  serve: {
    summary: 'serve the HTTP API for configured chains (--config FILE)',
    load: () => import('./commands/serve.ts'),
  },
  start: {
    summary: 'start the devnet and the API on the embedded default',
    load: () => import('./commands/start.ts'),
  },
  keys: {
    summary: "create, list or revoke a project's access keys",
    load: () => import('./commands/keys.ts'),
  },
  deploy: {
    summary: "deploy Switchyard's contracts to chains (same addresses on every chain)",
    load: () => import('./commands/deploy.ts'),
  },
  config: {
    summary: "config init: write a serve config for chains' RPC URLs",
    load: () => import('./commands/config.ts'),
  },
  doctor: {
    summary: 'check keys, chains, contracts, gas, solver inventory and database (--config FILE)',
    load: () => import('./commands/doctor.ts'),
  },
  inventory: {
    summary: "the solver's inventory per chain and token: balance, held, owed, low-water mark",
    load: () => import('./commands/inventory.ts'),
  },
  webhooks: {
    summary: "add, list, remove, test or replay a project's webhook endpoints",
    load: () => import('./commands/webhooks.ts'),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: switchyard <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`switchyard: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  return (await command.load()).run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof SwitchyardError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`switchyard: ${message}\n`);
  process.exitCode = 1;
}
