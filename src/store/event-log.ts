/**
 * Reading and trimming the event log (migration 0009: the rows are written by the database's triggers, in
 * the transaction of the change they describe). A project's numbers have no gaps: a read "after n" that
 * starts above n + 1 means the events between were deleted by the retention.
 */
import type { Kysely } from 'kysely';
import { compileOnce } from './compiled-query.ts';
import type { StoreContext } from './context.ts';
import { toDate } from './rows.ts';
import type { Database, IntentEventRow } from './schema.ts';
import type {
  EventLogRepo,
  IntentEventRecord,
  IntentStatus,
  TransactionKind,
  TransactionStatus,
} from './types.ts';

export function createEventLogRepo(ctx: StoreContext): EventLogRepo {
  const { db } = ctx;
  const reads = compileReads(db);
  return {
    async listAfter({ projectId, after, limit }) {
      const { rows } = await db.executeQuery<IntentEventRow>(reads.after({ projectId, after, limit }));
      return rows.map(eventFromRow);
    },

    async latest(projectId) {
      const { rows } = await db.executeQuery<{ last_seq: number }>(reads.latest({ projectId }));
      return Number(rows[0]?.last_seq ?? 0);
    },

    async positionAt({ projectId, since }) {
      const first = await db
        .selectFrom('intent_events')
        .select(['seq', 'created_at'])
        .where('project_id', '=', projectId)
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
      const from = await db
        .selectFrom('intent_events')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .where('project_id', '=', projectId)
        .where('created_at', '>=', since.getTime())
        .executeTakeFirst();
      const start = from?.seq ?? null;
      // Nothing at or after `since`: start after the last event.
      const after = start === null ? await this.latest(projectId) : Number(start) - 1;
      const truncated = first !== undefined && Number(first.seq) > 1 && first.created_at > since.getTime();
      return { after, truncated };
    },

    deleteOlderThan: (input) => deleteOlderThan(ctx, input),
  };
}

/** Events looked at per project and batch: the head of the project's log, in number order. */
const HEAD_PAGE = 500;

/**
 * Per project, the head of its log (the oldest events, by the primary key) up to the first one not older
 * than the cutoff, then a delete of that range. Numbers follow commit order and times follow the writers'
 * clocks, so the head is where old events are; reading only the head keeps an idle run to one short
 * index read per project instead of a scan of the log for old rows.
 */
async function deleteOlderThan(
  ctx: StoreContext,
  { before, limit }: { before: Date; limit: number },
): Promise<number> {
  const { db, capabilities } = ctx;
  const cutoff = before.getTime();
  const projects = await db.selectFrom('event_sequences').select('project_id').execute();
  let deleted = 0;
  for (const { project_id: projectId } of projects) {
    if (deleted >= limit) break;
    const head = await db
      .selectFrom('intent_events')
      .select(['seq', 'created_at'])
      .where('project_id', '=', projectId)
      .orderBy('seq')
      .limit(Math.min(HEAD_PAGE, limit - deleted))
      .execute();
    const old = head.findIndex((row) => Number(row.created_at) >= cutoff);
    const last = old === -1 ? head.at(-1) : head[old - 1];
    if (!last) continue;
    const upTo = Number(last.seq);
    // Postgres: rows another process is deleting are skipped, not waited for; SQLite has one writer.
    const result = await db
      .deleteFrom('intent_events')
      .where('project_id', '=', projectId)
      .$if(!capabilities.supportsSkipLocked, (q) => q.where('seq', '<=', upTo))
      .$if(capabilities.supportsSkipLocked, (q) =>
        q.where('seq', 'in', (eb) =>
          eb
            .selectFrom('intent_events')
            .select('seq')
            .where('project_id', '=', projectId)
            .where('seq', '<=', upTo)
            .forUpdate()
            .skipLocked(),
        ),
      )
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

function compileReads(db: Kysely<Database>) {
  return {
    after: compileOnce((v: { projectId: number; after: number; limit: number }) =>
      db
        .selectFrom('intent_events')
        .selectAll()
        .where('project_id', '=', v.projectId)
        .where('seq', '>', v.after)
        .orderBy('seq')
        .limit(v.limit)
        .compile(),
    ),
    latest: compileOnce((v: { projectId: number }) =>
      db.selectFrom('event_sequences').select('last_seq').where('project_id', '=', v.projectId).compile(),
    ),
  };
}

export function eventFromRow(row: IntentEventRow): IntentEventRecord {
  return {
    projectId: row.project_id,
    seq: Number(row.seq),
    intentId: row.intent_id,
    ownerAddress: row.owner_address,
    transactionKind: row.transaction_kind as TransactionKind | null,
    status: row.status as IntentStatus,
    receiptStates: {
      deposit: row.deposit_status as TransactionStatus,
      origin: row.origin_status as TransactionStatus,
      destination: row.destination_status as TransactionStatus,
      refund: row.refund_status as TransactionStatus | null,
    },
    chainId: row.chain_id,
    txnHash: row.txn_hash,
    createdAt: toDate(row.created_at),
  };
}
