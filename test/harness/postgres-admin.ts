/** Creating and dropping throwaway databases on a Postgres server: the test harness and the benchmarks. */
import pg from 'pg';

/** `url` pointing at database `database` on the same server. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** One statement on its own connection (CREATE/DROP DATABASE cannot run in a pooled transaction). */
export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
