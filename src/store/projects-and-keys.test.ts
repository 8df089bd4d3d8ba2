import { describe, expect, it } from 'vitest';
import { describeEachDialect, rawQuery } from '../../test/harness/database.ts';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, hashAccessKey } from './access-keys.ts';
import { AccessKeyNotFoundError, ProjectExistsError } from './errors.ts';

describeEachDialect('projects and access keys', ({ openStore, database }) => {
  it('creates a project, finds it by name and id, and refuses a duplicate name', async () => {
    const store = await openStore();
    const project = await store.projects.create('alpha');
    expect(project).toMatchObject({ name: 'alpha' });
    expect(await store.projects.findByName('alpha')).toEqual(project);
    expect(await store.projects.findById(project.id)).toEqual(project);
    expect(await store.projects.findByName('missing')).toBeUndefined();
    await expect(store.projects.create('alpha')).rejects.toBeInstanceOf(ProjectExistsError);
    expect(await store.projects.ensure('alpha')).toEqual(project);
    expect((await store.projects.ensure('beta')).name).toBe('beta');
  });

  it('returns the plaintext key once, stores only its SHA-256, and resolves it to the project', async () => {
    const store = await openStore();
    const project = await store.projects.create('keys-1');
    const { key, accessKey } = await store.accessKeys.create({ projectId: project.id, label: 'ci' });
    expect(key).toMatch(/^sy_[A-Za-z0-9_-]{43}$/);
    expect(accessKey).toMatchObject({ projectId: project.id, label: 'ci', revokedAt: null });
    expect(accessKey.rateLimitPerMinute).toBe(DEFAULT_RATE_LIMIT_PER_MINUTE);
    expect(key.startsWith(accessKey.prefix)).toBe(true);

    const rows = await rawQuery<{ key_hash: string; prefix: string }>(
      database(),
      `select key_hash, prefix from access_keys where id = ${accessKey.id}`,
    );
    expect(rows).toEqual([{ key_hash: hashAccessKey(key), prefix: accessKey.prefix }]);
    const everything = JSON.stringify(await rawQuery(database(), 'select * from access_keys'));
    expect(everything).not.toContain(key);

    expect(await store.accessKeys.resolve(key)).toEqual(accessKey);
    expect(await store.accessKeys.resolve(`${key}x`)).toBeUndefined();
  });

  it('lists a project’s keys by prefix and revokes by prefix or id', async () => {
    const store = await openStore();
    const project = await store.projects.create('keys-2');
    const other = await store.projects.create('keys-2-other');
    const a = await store.accessKeys.create({ projectId: project.id, rateLimitPerMinute: 60 });
    const b = await store.accessKeys.create({ projectId: project.id });
    await store.accessKeys.create({ projectId: other.id });

    const listed = await store.accessKeys.list(project.id);
    expect(listed.map((k) => k.prefix)).toEqual([a.accessKey.prefix, b.accessKey.prefix]);
    expect(listed[0]!.rateLimitPerMinute).toBe(60);

    const revoked = await store.accessKeys.revoke({ projectId: project.id, idOrPrefix: a.accessKey.prefix });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await store.accessKeys.resolve(a.key)).toBeUndefined();
    expect(await store.accessKeys.resolve(b.key)).toBeDefined();

    await store.accessKeys.revoke({ projectId: project.id, idOrPrefix: String(b.accessKey.id) });
    expect(await store.accessKeys.resolve(b.key)).toBeUndefined();
    expect((await store.accessKeys.list(project.id)).every((k) => k.revokedAt !== null)).toBe(true);
  });

  it('cannot revoke another project’s key or an unknown one', async () => {
    const store = await openStore();
    const mine = await store.projects.create('keys-3');
    const theirs = await store.projects.create('keys-3-other');
    const theirKey = await store.accessKeys.create({ projectId: theirs.id });
    await expect(
      store.accessKeys.revoke({ projectId: mine.id, idOrPrefix: theirKey.accessKey.prefix }),
    ).rejects.toBeInstanceOf(AccessKeyNotFoundError);
    await expect(store.accessKeys.revoke({ projectId: mine.id, idOrPrefix: 'sy_nothere' })).rejects.toThrow(
      /no access key 'sy_nothere'/,
    );
    expect(await store.accessKeys.resolve(theirKey.key)).toBeDefined();
  });
});

describe('store health', () => {
  describeEachDialect('ping', ({ openStore }) => {
    it('answers a round trip', async () => {
      const store = await openStore();
      expect(await store.ping()).toBeGreaterThanOrEqual(0);
    });
  });
});
