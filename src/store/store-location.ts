/**
 * Where the store lives, resolved once from flags and the environment: `DATABASE_URL` (Postgres)
 * wins; otherwise the SQLite file `<dataDir>/switchyard.sqlite`, where dataDir is the flag, else
 * `SWITCHYARD_DATA_DIR`, else `./.switchyard`.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export const DEFAULT_DATA_DIR = '.switchyard';
export const SQLITE_FILE_NAME = 'switchyard.sqlite';

export interface StoreLocation {
  databaseUrl?: string;
  sqlitePath?: string;
  /** For messages: "postgres://host/db" (without credentials) or the SQLite path. */
  description: string;
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return resolve(flag || env.SWITCHYARD_DATA_DIR || DEFAULT_DATA_DIR);
}

export function resolveStoreLocation(input: { dataDir?: string; env: NodeJS.ProcessEnv }): StoreLocation {
  const url = input.env.DATABASE_URL;
  if (url) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    return {
      databaseUrl: url,
      description: parsed ? `${parsed.protocol}//${parsed.host}${parsed.pathname}` : 'DATABASE_URL',
    };
  }
  const dataDir = resolveDataDir(input.dataDir, input.env);
  mkdirSync(dataDir, { recursive: true });
  const sqlitePath = resolve(dataDir, SQLITE_FILE_NAME);
  return { sqlitePath, description: sqlitePath };
}
