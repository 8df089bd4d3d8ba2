/**
 * What the floor's parent (floor-pass.ts) and its child processes (floor-process.ts) say to each other
 * over IPC, apart from the child program so the parent can import it without running it.
 */

/** `application_name` of the floor's connections, so the parent counts their backends and no others. */
export const FLOOR_APPLICATION_NAME = 'switchyard-floor';

export interface FloorJob {
  type: 'job';
  /** This process's number among the pass's processes. */
  process: number;
  databaseUrl: string;
  /** Connections of this process's postgres.js pool (the service's default per process). */
  poolSize: number;
  originRpcUrl: string;
  destinationRpcUrl: string;
  originChainId: number;
  /** JSON-RPC requests gathered per batch (the devnet chains' `rpcBatchSize`, as the engine's clients). */
  rpcBatchSize: number;
  warmupUnits: number;
  units: number;
  inFlight: number;
}

export type ToFloorProcess = FloorJob | { type: 'go' } | { type: 'stop' };
export type FromFloorProcess =
  | { type: 'ready' }
  | { type: 'done'; units: number }
  | { type: 'error'; message: string };
