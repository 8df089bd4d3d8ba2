/**
 * 0010: webhook endpoints and their delivery log. An endpoint belongs to a project and follows its event
 * log with a cursor, `handled_seq` (the last event number delivered, or skipped as not subscribed to): the
 * log is the outbox, written in the transaction of each change (0009), so nothing is queued per endpoint
 * and a crash loses nothing. The lease columns hand an endpoint to one dispatcher at a time; attempts, failing_since and
 * next_attempt_at are its retry state. Every attempt, ping included, is one webhook_deliveries row.
 */
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from '../capabilities.ts';

export function migration0010(c: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', c.serial, (col) => col.primaryKey())
        .addColumn('project_id', 'integer', (col) => col.notNull().references('projects.id'))
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('secret', 'text', (col) => col.notNull())
        .addColumn('event_types', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('handled_seq', 'bigint', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('failing_since', c.millis)
        .addColumn('next_attempt_at', c.millis, (col) => col.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', c.millis)
        .addColumn('created_at', c.millis, (col) => col.notNull())
        .addColumn('updated_at', c.millis, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_project')
        .on('webhook_endpoints')
        .columns(['project_id', 'id'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', c.serial, (col) => col.primaryKey())
        .addColumn('endpoint_id', 'integer', (col) => col.notNull().references('webhook_endpoints.id'))
        // The event's number; 0 for a ping.
        .addColumn('event_seq', 'bigint', (col) => col.notNull())
        .addColumn('event_type', 'text', (col) => col.notNull())
        .addColumn('attempt', 'integer', (col) => col.notNull())
        // Null when no HTTP answer came (refused, timed out, a blocked target).
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('latency_ms', 'integer', (col) => col.notNull())
        .addColumn('created_at', c.millis, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'id'])
        .execute();
    },
  };
}
