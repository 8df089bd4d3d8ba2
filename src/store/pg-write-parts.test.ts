/**
 * The Postgres statement parts written as text (pg-write-parts.ts) write what their query-builder twins write
 * for the same call: the same SQL text and the same parameters, for every shape the engine's writes take (the
 * columns a row sets, the statuses it moves from, the status moved to and its optional columns, a journal mark
 * of either stage), and CommitIntent's sum of the open fills. The parts with no twin (a row written after
 * another part or only with one) are pinned by their text. pg-sql.ts's rendering is checked first.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { JournalMark } from '../chains/transaction-journal.ts';
import { heldSumPg } from './held-fits-postgres.ts';
import { statusMoveQuery } from './intents.ts';
import { PREFIXED_INTENT_COLUMNS_OF_I, prefixedIntentColumns } from './lease-with-intent-postgres.ts';
import { ident, join, literal, pg, raw, render } from './pg-sql.ts';
import { journalMarkPg, rowAdvancePg, type StatusMove, statusMovePg } from './pg-write-parts.ts';
import type { Database } from './schema.ts';
import { journalMarkUpdate, storedMark } from './signed-transactions.ts';
import { openFills } from './solver-inventory.ts';
import { changedColumns, newTransactionRow, upsertRowQuery } from './transactions.ts';
import type { RowAdvance } from './types.ts';

const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const NOW = 1_790_000_000_000;
const INTENT = '0xAbC0000000000000000000000000000000000000000000000000000000000001';

describe('pg-sql', () => {
  it('numbers the parameters in order through nested fragments; arrays are one parameter', () => {
    const inner = pg`${2} + ${[3, 4]}::int[]`;
    expect(render(pg`select ${1}, (${inner}), ${'five'}`)).toEqual({
      sql: 'select $1, ($2 + $3::int[]), $4',
      parameters: [1, 2, [3, 4], 'five'],
    });
  });
  it('quotes identifiers and literals, doubling the quote inside them; joins with the separator', () => {
    expect(render(join([ident('a.b'), ident('we"ird'), literal("it's")], raw(' | '))).sql).toBe(
      `"a"."b" | "we""ird" | 'it''s'`,
    );
  });
});

describe('rowAdvancePg', () => {
  const rows: RowAdvance[] = [
    { intentId: INTENT, kind: 'origin', chainId: 1, status: 'PENDING', from: ['PENDING'] },
    {
      intentId: INTENT,
      kind: 'destination',
      chainId: 7,
      status: 'SUCCEEDED',
      fromAddress: '0xF00000000000000000000000000000000000000A',
      toAddress: '0xF00000000000000000000000000000000000000B',
      tokenAddress: '0xF00000000000000000000000000000000000000C',
      tokenAmount: 123_456_789_012_345_678_901_234_567_890n,
      statusReason: 'done',
      txnHash: '0xDEAD',
      calldata: '0x1234',
      minedAt: new Date(NOW - 5),
      meta: { gasUsed: '21000' },
      from: ['PENDING', 'RELAYING', 'MINING'],
    },
    {
      intentId: INTENT,
      kind: 'refund',
      chainId: 1,
      status: 'FAILED',
      tokenAmount: null,
      minedAt: null,
      meta: null,
      from: ['PENDING', 'MINING'],
    },
  ];
  it.each(rows.map((row) => [row.kind, row] as const))(
    'writes what upsertRowQuery writes (%s)',
    (_kind, row) => {
      const twin = upsertRowQuery(db, {
        row: newTransactionRow(row, NOW),
        set: { ...changedColumns(row), updated_at: NOW },
        from: row.from,
        onlyWithoutMeta: false,
      }).compile();
      expect(render(rowAdvancePg(row, NOW))).toEqual({ sql: twin.sql, parameters: twin.parameters });
    },
  );
  it('written after another part, it reads that part first; written only with one, it selects from it', () => {
    const row = rows[0]!;
    const plain = render(rowAdvancePg(row, NOW)).sql;
    expect(render(rowAdvancePg(row, NOW, { after: 'row_0' })).sql).toBe(
      plain.replace(
        '$14, $15) on conflict',
        '$14, (select $15::bigint from (select count(*) from "row_0") as "after")) on conflict',
      ),
    );
    expect(render(rowAdvancePg(row, NOW, { onlyWith: 'recorded' })).sql).toBe(
      plain.replace(/values \((\$1, .*?\$15)\) on conflict/, 'select $1 from "recorded" on conflict'),
    );
  });
});

describe('statusMovePg', () => {
  const moves: StatusMove[] = [
    { intentId: INTENT, to: 'COMMITTED', committedAt: new Date(NOW - 9), executeDeadline: new Date(NOW + 9) },
    { intentId: INTENT, to: 'EXECUTING', depositTransactionHash: '0xBEEF' },
    { intentId: INTENT, to: 'SUCCEEDED', at: new Date(NOW - 1) },
    { intentId: INTENT, to: 'REFUNDED' },
  ];
  it.each(moves.flatMap((move) => (['status', 'row'] as const).map((r) => [move.to, r, move] as const)))(
    'writes what statusMoveQuery writes (to %s, returning the %s)',
    (_to, returning, move) => {
      const at = move.at?.getTime() ?? NOW;
      const query = statusMoveQuery(db, move, at)!;
      const twin = (returning === 'row' ? query.returningAll() : query.returning('status')).compile();
      const ours = render(statusMovePg(move, at, { returning })!);
      expect(ours).toEqual({ sql: twin.sql, parameters: twin.parameters });
    },
  );
  it('waits for the part before it when there is one', () => {
    const move = moves[1]!;
    const ordered = render(statusMovePg(move, NOW, { after: 'row_1', returning: 'status' })!).sql;
    const plain = render(statusMovePg(move, NOW, { returning: 'status' })!).sql;
    expect(ordered).toBe(
      plain.replace(' returning "status"', ' and (select count(*) from "row_1") >= 0 returning "status"'),
    );
  });
  it('is undefined where no status may move to', () => {
    expect(statusMovePg({ intentId: INTENT, to: 'QUOTED' }, NOW, { returning: 'status' })).toBeUndefined();
    expect(statusMoveQuery(db, { intentId: INTENT, to: 'QUOTED' }, NOW)).toBeUndefined();
  });
});

describe('journalMarkPg', () => {
  const marks: JournalMark[] = [
    { stage: 'broadcast', hash: '0xAA' },
    { stage: 'mined', hash: '0xAB', status: 'mined', block: 17n, index: 2, at: new Date(NOW - 3) },
    { stage: 'mined', hash: '0xAC', status: 'failed' },
  ];
  it.each(marks.map((mark) => [mark.stage, mark] as const))(
    'writes what journalMarkUpdate writes (%s)',
    (_stage, mark) => {
      const stored = storedMark(mark, NOW);
      const twin = journalMarkUpdate(db, stored).compile();
      expect(render(journalMarkPg(stored))).toEqual({ sql: twin.sql, parameters: twin.parameters });
    },
  );
});

describe('heldSumPg', () => {
  it('writes what the fenced openFills read summed writes', () => {
    const check = {
      fillPurpose: 'solver-fill',
      chainId: 7770002,
      tokenAddress: '0x13DCC8DFFC1CC88EB46F6DA69357CD8E72FEF717',
    };
    const twin = openFills(db, check, true)
      .select(sql<string>`coalesce(sum("i"."fill_amount"), 0)`.as('amount'))
      .compile();
    expect(render(heldSumPg(check))).toEqual({ sql: twin.sql, parameters: twin.parameters });
  });
});

describe('PREFIXED_INTENT_COLUMNS_OF_I', () => {
  it("selects what prefixedIntentColumns('i') selects", () => {
    const twin = db.selectFrom('intents as i').select(prefixedIntentColumns('i')).compile();
    expect(`select ${render(PREFIXED_INTENT_COLUMNS_OF_I).sql} from "intents" as "i"`).toBe(twin.sql);
  });
});
