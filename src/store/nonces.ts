/**
 * Nonces per (chain, sender), kept in the database so that every process and every restart draws
 * from one sequence. Allocation is a single upsert: the row lock (Postgres) or the single writer
 * (SQLite) serialises concurrent callers, so nonces come out distinct and consecutive.
 */
import { type Kysely, sql } from 'kysely';
import type { StoreContext } from './context.ts';
import { lower } from './rows.ts';
import type { Database } from './schema.ts';
import type { NoncesRepo } from './types.ts';

export async function allocateNonce(
  db: Kysely<Database>,
  input: { chainId: number; address: string; floor?: number; now: number },
): Promise<number> {
  const floor = input.floor ?? 0;
  // Written as SQL rather than built: every send allocates one, and the query builder took ~7x the CPU to
  // build and compile it. The same text and parameters it gave, in both dialects (docs/benchmarks.md, e2e
  // "Statements compiled once"). Take the stored next nonce, unless the chain is already past it (the floor).
  const { rows } = await sql<{
    nonce: number | string;
  }>`insert into "nonces" ("chain_id", "address", "next_nonce", "updated_at") values (${input.chainId}, ${lower(input.address)}, ${floor + 1}, ${input.now}) on conflict ("chain_id", "address") do update set "next_nonce" = case when nonces.next_nonce > excluded.next_nonce - 1 then nonces.next_nonce + 1 else excluded.next_nonce end, "updated_at" = ${input.now} returning next_nonce - 1 as "nonce"`.execute(
    db,
  );
  const row = rows[0];
  if (!row)
    throw new Error(`allocating a nonce for ${input.address} on chain ${input.chainId} returned no row`);
  return Number(row.nonce);
}

export function createNoncesRepo(ctx: StoreContext): NoncesRepo {
  return {
    allocate: (input) => allocateNonce(ctx.db, { ...input, now: ctx.now().getTime() }),
    async peek({ chainId, address }) {
      const row = await ctx.db
        .selectFrom('nonces')
        .select('next_nonce')
        .where('chain_id', '=', chainId)
        .where('address', '=', lower(address))
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.next_nonce);
    },
  };
}
