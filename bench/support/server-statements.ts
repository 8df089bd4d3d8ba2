/**
 * --server-statements: what the Postgres server spent on each statement of the bench's database, from the
 * `pg_stat_statements` extension (executor time, calls, shared buffers), per intent. --count-sql counts the
 * statements the process sends; this shows which of them cost the server: a trigger's nested statements,
 * a read that walks many buffers, a write that waits on a lock (executor time is wall time, so it includes
 * lock waits, not the commit's WAL flush or the parse).
 *
 * The extension must be loaded by the server (`shared_preload_libraries = 'pg_stat_statements'`, then a
 * restart); the bench creates it in its database. Only this database's statements are reset and read, so
 * other databases on the same server do not mix in.
 */
import pg from 'pg';

/** Statements printed, the most expensive first. */
const TOP_STATEMENTS = 20;
/** Characters of a statement's text kept to name it. */
const QUERY_PREFIX_CHARS = 110;

export interface ServerStatements {
  /** Forgets what this database's statements cost so far. */
  reset(): Promise<void>;
  /** The statements since the last reset, per intent, as printable lines. */
  report(intents: number): Promise<string>;
  close(): Promise<void>;
}

interface StatementRow {
  query: string;
  toplevel: boolean;
  calls: string;
  total_exec_time: number;
  total_plan_time: number;
  shared_blks_hit: string;
}

export async function openServerStatements(databaseUrl: string): Promise<ServerStatements> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select 1 from pg_stat_statements limit 1');
  } catch (error) {
    await client.end();
    throw new Error(
      `--server-statements needs the server to load pg_stat_statements (shared_preload_libraries = 'pg_stat_statements', then restart it): ${(error as Error).message}`,
    );
  }
  const dbid = 'select oid from pg_database where datname = current_database()';
  return {
    async reset() {
      await client.query(`select pg_stat_statements_reset(0, (${dbid}), 0)`);
    },
    async report(intents) {
      const { rows } = await client.query<StatementRow>(
        `select query, toplevel, calls, total_exec_time, total_plan_time, shared_blks_hit from pg_stat_statements
         where dbid = (${dbid}) and query not like '%pg_stat_statements%'
         order by total_exec_time desc`,
      );
      const top = rows.filter((r) => r.toplevel);
      const totalMs = top.reduce((sum, r) => sum + r.total_exec_time, 0);
      const totalCalls = top.reduce((sum, r) => sum + Number(r.calls), 0);
      const planMs = top.reduce((sum, r) => sum + r.total_plan_time, 0);
      const lines = [
        `  ${(totalMs / intents).toFixed(2).padStart(7)} ms  ${(totalCalls / intents).toFixed(2).padStart(6)} calls  total (top-level statements), planning ${(planMs / intents).toFixed(2)} ms more (0 unless pg_stat_statements.track_planning is on)`,
        '       ms   calls   µs/call  plan µs/call  buffers/call  statement ("nested": run by a trigger or function, inside its caller\'s time)',
      ];
      for (const r of rows.slice(0, TOP_STATEMENTS)) {
        const calls = Number(r.calls);
        const text = r.query.replace(/\s+/g, ' ').slice(0, QUERY_PREFIX_CHARS);
        lines.push(
          `  ${(r.total_exec_time / intents).toFixed(2).padStart(7)}  ${(calls / intents).toFixed(2).padStart(6)}  ${((1000 * r.total_exec_time) / calls).toFixed(0).padStart(8)}  ${((1000 * r.total_plan_time) / calls).toFixed(0).padStart(12)}  ${(Number(r.shared_blks_hit) / calls).toFixed(0).padStart(12)}  ${r.toplevel ? '' : '(nested) '}${text}`,
        );
      }
      return lines.join('\n');
    },
    close: () => client.end(),
  };
}
