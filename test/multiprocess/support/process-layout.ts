/**
 * The several-processes layout of docs/operations.md on a devnet: a serve config for the devnet's chains in
 * a working directory, the environment every process shares (DATABASE_URL, the operator keys), and API
 * processes and workers started from the page's `processes` blocks (role-process.ts). Each API process keeps
 * its port across restarts, as a load balancer's upstream does.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toFileChain } from '../../harness/config-file.ts';
import type { TestDevnet } from '../../harness/devnet.ts';
import { stablePortRange } from '../../harness/free-port.ts';
import { extractMarkedBlocks } from '../../operations/support/doc-blocks.ts';
import { switchyardOnPath } from '../../operations/support/run-doc-block.ts';
import { type Role, type RoleProcess, startRoleProcess } from './role-process.ts';

const GUIDE = path.resolve(import.meta.dirname, '../../../docs/operations.md');

export interface ProcessLayout {
  /** Each API process's base URL, fixed by its port. */
  apiUrls: string[];
  /** The processes running now, by name (`api-0`, `worker-1`, …); a killed one until it is restarted. */
  running: Map<string, RoleProcess>;
  start(role: Role, index: number): Promise<RoleProcess>;
  logPath(name: string): string;
}

export interface ProcessLayoutOptions {
  net: TestDevnet;
  databaseUrl: string;
  workDir: string;
  apis: number;
  /** Variables every process gets beside DATABASE_URL and the keys (e.g. the pool size). */
  env?: Record<string, string>;
}

export async function createProcessLayout(options: ProcessLayoutOptions): Promise<ProcessLayout> {
  const blocks = extractMarkedBlocks(await readFile(GUIDE, 'utf8'), 'processes');
  const script = (role: Role) => {
    const found = blocks.get(role);
    if (!found) throw new Error(`docs/operations.md has no block marked 'processes: ${role}'`);
    return found;
  };
  await writeFile(
    path.join(options.workDir, 'switchyard.json'),
    JSON.stringify({ chains: options.net.chainConfigs.map(toFileChain) }, null, 2),
  );
  const accounts = options.net.devnet.accounts;
  const env = {
    DATABASE_URL: options.databaseUrl,
    SWITCHYARD_RELAYER_KEY: accounts.relayer!.privateKey,
    SWITCHYARD_SOLVER_KEY: accounts.solver!.privateKey,
    SWITCHYARD_ATTESTER_KEY: accounts.attester!.privateKey,
    SWITCHYARD_FEE_COLLECTOR: accounts.feeCollector!.address,
    ...options.env,
  };
  const base = await stablePortRange(options.apis);
  const ports = Array.from({ length: options.apis }, (_, i) => base + i);
  const binDir = await switchyardOnPath();
  const running = new Map<string, RoleProcess>();
  const logPath = (name: string) => path.join(options.workDir, `${name}.log`);
  return {
    apiUrls: ports.map((port) => `http://127.0.0.1:${port}`),
    running,
    logPath,
    async start(role, index) {
      const name = `${role}-${index}`;
      const started = await startRoleProcess({
        name,
        role,
        script: script(role),
        env: role === 'api' ? { ...env, API_PORT: String(ports[index]) } : env,
        binDir,
        cwd: options.workDir,
        logPath: logPath(name),
      });
      running.set(name, started);
      return started;
    },
  };
}
