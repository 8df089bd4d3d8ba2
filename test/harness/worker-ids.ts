/** Worker ids of other processes, for tests of telling dead workers from live ones (src/internal/worker-id.ts). */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { newWorkerId } from '../../src/internal/worker-id.ts';

/** A worker id as process `pid` would have made it in `space` (default: this process's space). */
export function idOfProcess(pid: number, space = newWorkerId().split(':')[3]!): string {
  return `${hostname()}:${pid}:0badc0de:${space}`;
}

/** The PID of a process that has exited and been reaped. */
export async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}
