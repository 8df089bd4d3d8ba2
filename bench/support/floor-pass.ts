/**
 * One pass of the floor (e2e-floor.ts): a fixed total of floor units and a fixed total in flight, split
 * evenly over N child processes (floor-process.ts), with the CPU of those processes, of the Postgres
 * backends serving them and of the chains read from /proc (process-cpu.ts) from the moment all are warm
 * and told to go to the moment the last says done.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { FloorJob, FromFloorProcess, ToFloorProcess } from './floor-messages.ts';
import { createGroupCpuMeter, type GroupSpent } from './process-cpu.ts';
import { withTimeout } from './server-process.ts';

/** After `stop`, this long (ms) before a child is killed. */
const STOP_GRACE_MS = 10_000;

export interface FloorPassOptions {
  /** The compiled child program (floor-process.ts). */
  script: string;
  processes: number;
  /** Units of the whole pass, split over the processes. */
  units: number;
  /** Units in flight over all processes, split over them. */
  inFlight: number;
  /** Units each process runs before the pass is measured. */
  warmupUnits: number;
  /** Where the units go: the same for every process. */
  target: Omit<FloorJob, 'type' | 'process' | 'units' | 'inFlight' | 'warmupUnits'>;
  /** The Postgres backends of the floor's connections (and no others) now. */
  backendPids(): Promise<number[]>;
  chainPids(): number[];
}

export interface FloorPass {
  processes: number;
  units: number;
  /** From `go` to the last process done (ms). */
  spanMs: number;
  /** CPU ms over the span: `floor` (the child processes), `postgres` (their backends), `chains`. */
  spent: GroupSpent;
}

/** The share of `total` that part `index` of `parts` gets: equal, the remainder to the first ones. */
export function shareOf(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

interface FloorChild {
  pid: number;
  ask(message: ToFloorProcess): Promise<FromFloorProcess>;
  stop(): Promise<void>;
}

function forkChild(script: string): FloorChild {
  const child: ChildProcess = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    ask(message) {
      const answer = new Promise<FromFloorProcess>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`floor process exited (${code})`));
        child.once('exit', onExit);
        child.once('message', (m: FromFloorProcess) => {
          child.off('exit', onExit);
          if (m.type === 'error') reject(new Error(`floor process: ${m.message}`));
          else resolve(m);
        });
      });
      child.send(message);
      return withTimeout(answer, `floor process answer to ${message.type}`);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const grace = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.send({ type: 'stop' } satisfies ToFloorProcess);
      await exited;
      clearTimeout(grace);
    },
  };
}

export async function runFloorPass(options: FloorPassOptions): Promise<FloorPass> {
  const { processes } = options;
  const children = Array.from({ length: processes }, () => forkChild(options.script));
  try {
    await Promise.all(
      children.map((child, i) =>
        child.ask({
          type: 'job',
          ...options.target,
          process: i,
          units: shareOf(options.units, processes, i),
          inFlight: shareOf(options.inFlight, processes, i),
          warmupUnits: options.warmupUnits,
        }),
      ),
    );
    const meter = createGroupCpuMeter(async () => ({
      floor: children.map((c) => c.pid),
      postgres: await options.backendPids(),
      chains: options.chainPids(),
    }));
    const before = await meter.snapshot();
    const started = performance.now();
    const done = await Promise.all(children.map((child) => child.ask({ type: 'go' })));
    const spanMs = performance.now() - started;
    const spent = await meter.since(before);
    const units = done.reduce((sum, m) => sum + (m.type === 'done' ? m.units : 0), 0);
    return { processes, units, spanMs, spent };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
