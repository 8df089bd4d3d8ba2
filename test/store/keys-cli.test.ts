import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import { describeEachDialect } from '../harness/database.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/switchyard.js');

describeEachDialect('switchyard keys', ({ database }) => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sw-keys-cli-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  /** Runs the CLI against this block's database: DATABASE_URL for Postgres, --data-dir for SQLite. */
  const keys = async (...args: string[]) => {
    const { databaseUrl } = database().options;
    const env = { ...process.env, DATABASE_URL: databaseUrl ?? '', SWITCHYARD_DATA_DIR: dataDir };
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, 'keys', ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('creates a key that resolves to the project, lists it by prefix, and revokes it', async () => {
    const created = await keys('create', '--project', 'cli-demo', '--label', 'ci', '--rate-limit', '120');
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sy_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain("created project 'cli-demo'");

    const { databaseUrl } = database().options;
    const store = await createStore({
      log: createSilentLogger(),
      ...(databaseUrl ? { databaseUrl } : { sqlitePath: join(dataDir, 'switchyard.sqlite') }),
    });
    try {
      const resolved = await store.accessKeys.resolve(key);
      const project = await store.projects.findByName('cli-demo');
      expect(resolved).toMatchObject({ projectId: project!.id, label: 'ci', rateLimitPerMinute: 120 });

      const listed = await keys('list', '--project', 'cli-demo');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(key.slice(0, 11));
      expect(listed.stdout).not.toContain(key);

      const revoked = await keys('revoke', '--project', 'cli-demo', key.slice(0, 11));
      expect(revoked.code).toBe(0);
      expect(await store.accessKeys.resolve(key)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('explains an unknown project, an unknown key and a missing argument', async () => {
    const noProject = await keys('list', '--project', 'nobody');
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain("project 'nobody' does not exist");
    const noKey = await keys('revoke', '--project', 'cli-demo', 'sy_unknown1');
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("has no access key 'sy_unknown1'");
    const noFlag = await keys('list');
    expect(noFlag.code).toBe(2);
    expect(noFlag.stderr).toContain('--project NAME is required');
  });
});
