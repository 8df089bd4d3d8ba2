/**
 * The parts of the engine's Postgres-only data-modifying statements, as text (pg-sql.ts says why): a receipt
 * row's advance, a status move, a journal mark, and what a statement selects to announce a moved row. Each
 * writes the SQL its query-builder twin writes, which SQLite and the statements compiled once still use
 * (`upsertRowQuery` in transactions.ts, `statusMoveQuery` in intents.ts, `journalMarkUpdate` in
 * signed-transactions.ts); pg-write-parts.test.ts holds the two to the same text and parameters.
 */
import type { JournalMark } from '../chains/transaction-journal.ts';
import type { WriteNotifications } from './intent-events-postgres.ts';
import { EMPTY, ident, join, literal, type PgSql, pg, raw, values } from './pg-sql.ts';
import { lower } from './rows.ts';
import { type StoredMark, storedMark } from './signed-transactions.ts';
import { isTerminal, predecessorsOf } from './statuses.ts';
import { changedColumns, newTransactionRow } from './transactions.ts';
import type { RowAdvance, StatusUpdate } from './types.ts';

/** A status move without the parts that ride beside it. */
export type StatusMove = Omit<StatusUpdate, 'rowsBefore' | 'rowsAfter' | 'enqueue' | 'inventory'>;

/** `col = $n, …` for each column of `set`, in its order. */
const assignments = (set: Record<string, unknown>): PgSql =>
  join(Object.entries(set).map(([column, value]) => pg`${ident(column)} = ${value}`));

/**
 * A receipt row's advance, as `transactions.advance` writes it alone (its twin `upsertRowQuery`): the row
 * inserted, or the stored one moved when its status is one of `from`; returns the row when it was written.
 * `onlyWith`: written only when that part of the enclosing WITH yields a row; `after`: that part is read to
 * completion first, so this write (and its event) comes after.
 */
export function rowAdvancePg(
  input: RowAdvance,
  now: number,
  options: { onlyWith?: string | undefined; after?: string | undefined } = {},
): PgSql {
  const set = { ...changedColumns(input), updated_at: now };
  const { created_at: _now, ...row } = newTransactionRow(input, now);
  // The value is `now` either way; reading it through `after`'s count is what orders the two writes.
  const createdAt =
    options.after === undefined
      ? pg`${now}`
      : pg`(select ${now}::bigint from (select count(*) from ${ident(options.after)}) as "after")`;
  const columns = [...Object.keys(row), 'created_at'];
  const rowValues = join([...Object.values(row).map((value) => pg`${value}`), createdAt]);
  const source =
    options.onlyWith === undefined
      ? pg`values (${rowValues})`
      : pg`select ${rowValues} from ${ident(options.onlyWith)}`;
  return pg`insert into "intent_transactions" (${join(columns.map(ident))}) ${source} on conflict ("intent_id", "kind") do update set ${assignments(set)} where "intent_transactions"."status" in (${values(input.from)}) returning *`;
}

/**
 * statusMoveQuery's UPDATE (intents.ts): its WHERE clause is the guard, so only an intent in an earlier status
 * moves; `after` makes it wait for that part of the enclosing WITH. Undefined when no status may move to
 * `update.to`.
 */
export function statusMovePg(
  update: StatusMove,
  at: number,
  options: {
    after?: string | undefined;
    /** One more condition of the move (CommitIntent's inventory check, held-fits-postgres.ts). */
    also?: PgSql | undefined;
    returning: 'status' | 'row';
  },
): PgSql | undefined {
  const allowedFrom = predecessorsOf(update.to);
  if (allowedFrom.length === 0) return undefined;
  const started = update.to === 'EXECUTING' ? pg`coalesce("started_at", ${at})` : raw('"started_at"');
  const finished = isTerminal(update.to) ? pg`${at}` : raw('"finished_at"');
  const optional = {
    ...(update.committedAt && { committed_at: update.committedAt.getTime() }),
    ...(update.executeDeadline && { execute_deadline: update.executeDeadline.getTime() }),
    ...(update.depositTransactionHash && { deposit_transaction_hash: lower(update.depositTransactionHash) }),
  };
  const more = Object.keys(optional).length > 0 ? pg`, ${assignments(optional)}` : EMPTY;
  // Always true: the condition is there to make the move wait for the part before it.
  const ordered =
    options.after === undefined ? EMPTY : pg` and (select count(*) from ${ident(options.after)}) >= 0`;
  const also = options.also === undefined ? EMPTY : pg` and ${options.also}`;
  const returning = options.returning === 'row' ? raw('*') : raw('"status"');
  return pg`update "intents" set "status" = ${update.to}, "updated_at" = ${at}, "started_at" = ${started}, "finished_at" = ${finished}${more} where "intent_id" = ${lower(update.intentId)} and "status" in (${values(allowedFrom)})${ordered}${also} returning ${returning}`;
}

/** journalMarkUpdate's statement (signed-transactions.ts). */
export function journalMarkPg(mark: StoredMark): PgSql {
  if (mark.stage === 'broadcast') {
    return pg`update "signed_transactions" set "status" = ${'broadcast'}, "broadcast_at" = ${mark.at} where "hash" = ${mark.hash} and "status" = ${'signed'}`;
  }
  const set = {
    status: mark.status,
    mined_at: mark.at,
    ...(mark.block !== undefined && { mined_block: mark.block }),
    ...(mark.index !== undefined && { mined_index: mark.index }),
  };
  return pg`update "signed_transactions" set ${assignments(set)} where "hash" = ${mark.hash}`;
}

/** The journal mark as the part `name` of an enclosing data-modifying WITH. */
export const journalMarkEntryPg = (name: string, mark: JournalMark, now: number): PgSql =>
  pg`${ident(name)} as (${journalMarkPg(storedMark(mark, now))})`;

/**
 * `row_moved` (0 or 1) and `notified`: the NOTIFY of the row in the enclosing WITH's `moved_row` entry, sent
 * when it moved. The caller delivers the change in this process when `row_moved` is 1
 * (WriteNotifications.deliver).
 */
export function movedRowColumnsPg(notifications: WriteNotifications): PgSql {
  const { changeChannel, senderPrefix } = notifications;
  return pg`(select count(*) from "moved_row")::int as "row_moved", (select pg_notify(${literal(changeChannel)}, ${literal(senderPrefix)} || "moved_row"."intent_id") from "moved_row") as "notified"`;
}

/** statusMoveWith's WITH entries and the select's expressions that go with them. */
export interface StatusMoveStatement {
  entries: PgSql[];
  status: PgSql;
  written: PgSql;
  notify: PgSql;
}

/**
 * A status move with its receipt rows as the entries of one data-modifying WITH: the rows' journal marks,
 * then the rows before, the move (`moved`) and the rows after, in that order (orderedParts). Beside the
 * entries, the select's expressions: `status` the status moved to (null when it did not move), `written` how
 * many rows moved, `notify` the intent's NOTIFY, sent when either moved. Undefined when no status may move to
 * `update.to`. updateStatus runs it alone; a step's completion with its own entries beside it
 * (complete-step-postgres.ts); a move with steps with the steps' insert (move-with-steps-postgres.ts).
 */
export function statusMoveWith(
  update: StatusMove,
  rows: { before: readonly RowAdvance[]; after: readonly RowAdvance[] },
  now: number,
  inWrite: WriteNotifications,
  /** What `moved` returns: the status, or (a move with steps) the whole row. */
  returning: 'status' | 'row' = 'status',
): StatusMoveStatement | undefined {
  const parts = orderedParts(update, rows, now, returning);
  if (!parts) return undefined;
  // A row's journal mark (a send's mined mark held for its last row) is written whether or not it moves.
  const marks = [...rows.before, ...rows.after].flatMap((row, i) =>
    row.journalMark ? [journalMarkEntryPg(`marked_${i}`, row.journalMark, now)] : [],
  );
  const counts = parts
    .filter((part) => part.name !== 'moved')
    .map((part) => pg`(select count(*) from ${ident(part.name)})`);
  const written = counts.length > 0 ? pg`(${join(counts, raw(' + '))})::int` : raw('0');
  const payload = inWrite.changePayload(lower(update.intentId));
  return {
    entries: [...marks, ...parts.map((part) => pg`${ident(part.name)} as (${part.query})`)],
    status: raw('(select "status" from "moved")'),
    written,
    notify: pg`(select pg_notify(${literal(inWrite.changeChannel)}, ${payload})
    where exists (select 1 from "moved") or ${written} > 0)`,
  };
}

/**
 * The parts of a status move's data-modifying WITH: the rows before, the move (`moved`), the rows after. Each
 * part reads the one before it to completion before it writes, so the writes (and their events, migration
 * 0009) come in this order; sibling parts would otherwise run in no specified order.
 */
function orderedParts(
  update: StatusMove,
  rows: { before: readonly RowAdvance[]; after: readonly RowAdvance[] },
  now: number,
  returning: 'status' | 'row',
): { name: string; query: PgSql }[] | undefined {
  const parts: { name: string; query: PgSql }[] = [];
  const addRow = (row: RowAdvance) => {
    const after = parts.at(-1)?.name;
    parts.push({ name: `row_${parts.length}`, query: rowAdvancePg(row, now, { after }) });
  };
  for (const row of rows.before) addRow(row);
  const move = statusMovePg(update, update.at?.getTime() ?? now, { after: parts.at(-1)?.name, returning });
  if (!move) return undefined;
  parts.push({ name: 'moved', query: move });
  for (const row of rows.after) addRow(row);
  return parts;
}
