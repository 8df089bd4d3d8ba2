/**
 * Access keys. A key is `sy_` followed by 32 random bytes (base64url); only its SHA-256 is stored,
 * with a short prefix for listings. Resolving hashes the presented key and looks the hash up on a
 * unique index, so no comparison of secrets happens in JavaScript.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { StoreContext } from './context.ts';
import { AccessKeyNotFoundError } from './errors.ts';
import { accessKeyFromRow } from './rows.ts';
import type { AccessKey, AccessKeysRepo } from './types.ts';

const KEY_MARKER = 'sy_';
/** 256 bits of entropy: keys cannot be guessed. */
const KEY_RANDOM_BYTES = 32;
/** Characters of the key shown in listings: the marker plus 8 random characters (48 bits). */
export const KEY_PREFIX_LENGTH = KEY_MARKER.length + 8;
/** 10 requests per second per key: ample for a wallet polling receipts, low enough to stop abuse. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

export function hashAccessKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function createAccessKeysRepo(ctx: StoreContext): AccessKeysRepo {
  const { db } = ctx;
  return {
    async create({ projectId, label, rateLimitPerMinute }) {
      const key = KEY_MARKER + randomBytes(KEY_RANDOM_BYTES).toString('base64url');
      const row = await db
        .insertInto('access_keys')
        .values({
          project_id: projectId,
          key_hash: hashAccessKey(key),
          prefix: key.slice(0, KEY_PREFIX_LENGTH),
          label: label ?? null,
          rate_limit_per_minute: rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
          created_at: ctx.now().getTime(),
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { key, accessKey: accessKeyFromRow(row) };
    },

    async resolve(key) {
      const row = await db
        .selectFrom('access_keys')
        .selectAll()
        .where('key_hash', '=', hashAccessKey(key))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row && accessKeyFromRow(row);
    },

    async list(projectId) {
      const rows = await db
        .selectFrom('access_keys')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('id')
        .execute();
      return rows.map(accessKeyFromRow);
    },

    async revoke({ projectId, idOrPrefix }): Promise<AccessKey> {
      const byId = /^\d+$/.test(idOrPrefix);
      const row = await db
        .updateTable('access_keys')
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(ctx.now().getTime())) }))
        .where('project_id', '=', projectId)
        .where(byId ? 'id' : 'prefix', '=', byId ? Number(idOrPrefix) : idOrPrefix)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new AccessKeyNotFoundError(projectId, idOrPrefix);
      return accessKeyFromRow(row);
    },

    async setRateLimit({ id, rateLimitPerMinute }) {
      const row = await db
        .updateTable('access_keys')
        .set({ rate_limit_per_minute: rateLimitPerMinute })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && accessKeyFromRow(row);
    },
  };
}
