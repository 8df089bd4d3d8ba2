/**
 * Runs the SQLite file's WAL checkpoints on a worker thread, with the worker's own connection.
 *
 * better-sqlite3 is synchronous: with SQLite's automatic checkpoint, the commit that crosses 1,000 WAL
 * pages copies them into the database file and syncs it, on the event loop. In bench/e2e that was
 * 126 statements of 2–70 ms each, a third of all the time spent inside SQLite, every one of them a
 * stall for every request and intent in flight. Here the server's connection never checkpoints
 * (`wal_autocheckpoint = 0`) and the worker runs a PASSIVE checkpoint every CHECKPOINT_EVERY_MS, which
 * never waits for the writer. If the worker fails, the connection checkpoints itself again.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../internal/logger.ts';

/** How often (ms) the worker checkpoints: the WAL then holds a fraction of a second of commits. */
export const CHECKPOINT_EVERY_MS = 200;
/**
 * WAL size (frames of 4 kB) above which the worker also restarts the WAL. Under steady writes a passive
 * checkpoint rarely ends with nothing new in the WAL, and only then does the writer start it over, so
 * without this the file only grows; a RESTART holds the writer back for the few frames written since.
 */
export const WAL_RESTART_FRAMES = 8_192;
/** SQLite's own default, restored on the server's connection when the worker fails. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** How long (ms) closing waits for the worker to finish its checkpoint and close its connection. */
const STOP_WAIT_MS = 2_000;
/** Wait for another connection's lock this long (ms) before a checkpoint gives up for this round. */
const WORKER_BUSY_TIMEOUT_MS = 1_000;

/** Plain CommonJS: it runs as is in a worker, without the TypeScript loader or a build step. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.path);
db.pragma('busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}');
db.pragma('synchronous = NORMAL');
const stopped = new Int32Array(workerData.stopped);
let timer;
const round = () => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    if (passive.log > workerData.restartFrames) db.pragma('wal_checkpoint(RESTART)');
  } catch (error) {
    if (!/busy|locked/i.test(String(error && error.message))) throw error;
  }
  timer = setTimeout(round, workerData.everyMs);
};
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  Atomics.store(stopped, 0, 1);
  Atomics.notify(stopped, 0);
  parentPort.close();
});
round();
`;

export interface WalCheckpointer {
  /** Stops the worker after its current checkpoint and closes its connection (synchronous). */
  stop(): void;
}

export interface WalCheckpointerOptions {
  path: string;
  log: Logger;
  /** Called once if the worker fails: the caller turns the connection's own checkpoints back on. */
  onFailure: () => void;
  everyMs?: number;
  restartFrames?: number;
  /** The better-sqlite3 module the worker loads (tests give a missing one to see the failure path). */
  driverPath?: string;
}

export function startWalCheckpointer(options: WalCheckpointerOptions): WalCheckpointer {
  const stopped = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path: options.path,
      everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS,
      restartFrames: options.restartFrames ?? WAL_RESTART_FRAMES,
      driverPath: options.driverPath ?? createRequire(import.meta.url).resolve('better-sqlite3'),
      stopped,
    },
  });
  // Never keeps the process alive on its own.
  worker.unref();
  let stopping = false;
  let failed = false;
  const fail = (reason: unknown) => {
    if (stopping || failed) return;
    failed = true;
    options.log.warn('WAL checkpoint worker failed: the connection checkpoints itself again', {
      path: options.path,
      error: reason,
    });
    options.onFailure();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
  return {
    stop() {
      if (stopping) return;
      stopping = true;
      if (failed) return;
      worker.postMessage('stop');
      Atomics.wait(new Int32Array(stopped), 0, 0, STOP_WAIT_MS);
      void worker.terminate();
    },
  };
}
