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
  const row = await db
    .insertInto('nonces')
    .values({
      chain_id: input.chainId,
      address: lower(input.address),
      next_nonce: floor + 1,
      updated_at: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['chain_id', 'address']).doUpdateSet({
        // Take the stored next nonce, unless the chain is already past it (the floor).
        next_nonce: sql<number>`case when nonces.next_nonce > excluded.next_nonce - 1 then nonces.next_nonce + 1 else excluded.next_nonce end`,
        updated_at: input.now,
      }),
    )
    .returning(sql<number>`next_nonce - 1`.as('nonce'))
    .executeTakeFirstOrThrow();
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
