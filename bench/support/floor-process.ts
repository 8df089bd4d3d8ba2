/**
 * The floor's child program (forked by floor-pass.ts, compiled like a benchmark's server script): a plain
 * Node process that runs its share of floor units (floor-unit.ts) with a fixed number in flight, on its own
 * postgres.js pool and its own batching JSON-RPC clients, like one worker process but with no engine.
 *
 * Over IPC: it gets a `job`, opens its connections, runs `warmupUnits` (so connections are open and the
 * code is compiled before anything is measured) and says `ready`; on `go` it runs `units` and says `done`
 * with how long they took; on `stop` it closes its connections and exits. The parent reads its CPU from
 * /proc between `go` and `done`, so start-up and warm-up are not counted.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { bytesToHex, createPublicClient, http, type PublicClient } from 'viem';
import { createKeepAliveFetch } from '../../src/chains/keep-alive-fetch.ts';
import { signingAccount } from '../../src/chains/signing-account.ts';
import {
  FLOOR_APPLICATION_NAME,
  type FloorJob,
  type FromFloorProcess,
  type ToFloorProcess,
} from './floor-messages.ts';
import { createFloorUnit, type FloorUnit } from './floor-unit.ts';

/** Runs `count` units with `inFlight` at a time, numbered from `first`. */
async function runUnits(unit: FloorUnit, first: number, count: number, inFlight: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await unit(first + next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane));
}

/** Like src/chains/create-chain-clients.ts for the engine: keep-alive fetch, batches gathered for 0 ms. */
function chainClient(url: string, batchSize: number, fetchFn: typeof fetch): PublicClient {
  const transport = http(url, {
    fetchFn,
    maxResponseBodySize: false,
    ...(batchSize > 1 && { batch: { batchSize, wait: 0 } }),
  });
  return createPublicClient({ transport }) as PublicClient;
}

function serve(send: (message: FromFloorProcess) => void): void {
  let job: FloorJob | undefined;
  let unit: FloorUnit | undefined;
  let sql: postgres.Sql | undefined;
  let keepAlive: ReturnType<typeof createKeepAliveFetch> | undefined;
  const handle = async (message: ToFloorProcess) => {
    if (message.type === 'job') {
      job = message;
      sql = postgres(job.databaseUrl, {
        max: job.poolSize,
        connection: { application_name: FLOOR_APPLICATION_NAME },
        onnotice: () => {},
      });
      keepAlive = createKeepAliveFetch();
      unit = createFloorUnit({
        sql,
        origin: chainClient(job.originRpcUrl, job.rpcBatchSize, keepAlive.fetch as typeof fetch),
        destination: chainClient(job.destinationRpcUrl, job.rpcBatchSize, keepAlive.fetch as typeof fetch),
        account: signingAccount(bytesToHex(randomBytes(32))),
        chainId: job.originChainId,
        process: job.process,
      });
      await runUnits(unit, 0, job.warmupUnits, job.inFlight);
      send({ type: 'ready' });
    } else if (message.type === 'go') {
      await runUnits(unit!, job!.warmupUnits, job!.units, job!.inFlight);
      send({ type: 'done', units: job!.units });
    } else {
      await sql?.end();
      keepAlive?.close();
      process.exit(0);
    }
  };
  process.on('message', (message: ToFloorProcess) => {
    handle(message).catch((error: Error) => send({ type: 'error', message: error.stack ?? error.message }));
  });
}

serve((message) => process.send!(message));
