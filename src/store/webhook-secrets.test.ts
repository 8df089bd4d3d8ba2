/**
 * Webhook signing secrets at rest (WEBHOOK_SECRETS_KEY), on SQLite and Postgres, looking at the column as
 * stored: encrypted with a key, bound to its endpoint, and read back through the repository; a plain secret
 * stored before the key, and an enc:v1: value from before the binding, still read; a value copied into
 * another endpoint's row refused, and so is a deleted endpoint's value in the row that took its id (SQLite
 * reuses the highest id), told apart by created_at; encryptSecrets converting plain rows and v1 values once, and re-encrypting
 * under a new key what the key being rotated out opens, which a store with both keys reads meanwhile; a store
 * without the key, or with another one, refusing to read an encrypted secret with an error naming the
 * endpoint, while listing and leasing still work.
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, rawExecute, rawQuery } from '../../test/harness/database.ts';
import { ConfigError } from '../internal/errors.ts';
import { WebhookSecretUnreadableError } from './errors.ts';
import { legacyV1Secret, newIntent } from './testing.ts';
import type { Project, Store } from './types.ts';

const newKey = () => createSecretKey(randomBytes(32));
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

describeEachDialect('webhook secrets at rest', ({ dialect, database, openStore }) => {
  const key = newKey();
  let keyed: Store;
  let plain: Store;
  let project: Project;
  beforeAll(async () => {
    keyed = await openStore({ webhookSecretsKey: key });
    plain = await openStore();
    project = await keyed.projects.create('secrets');
  });

  const add = (store: Store, secret: string) =>
    store.webhooks.create({
      projectId: project.id,
      url: 'https://hooks.example/s',
      secret,
      eventTypes: ['*'],
    });
  const stored = async (id: number) =>
    (
      await rawQuery<{ secret: string }>(database(), `SELECT secret FROM webhook_endpoints WHERE id = ${id}`)
    )[0]!.secret;

  const setStored = (id: number, value: string) =>
    rawExecute(database(), `UPDATE webhook_endpoints SET secret = '${value}' WHERE id = ${id}`);
  const readBy = async (store: Store, id: number) =>
    (await store.webhooks.get({ projectId: project.id, id }))!.readSecret();

  it('with a key the column holds an enc:v2: value, not the secret, and every read gives the secret back', async () => {
    const secret = newSecret();
    const endpoint = await add(keyed, secret);
    const column = await stored(endpoint.id);
    expect(column).toMatch(/^enc:v2:[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(column).not.toContain(secret);
    expect(column).not.toContain(secret.slice('whsec_'.length));
    expect(endpoint.readSecret()).toBe(secret);
    expect((await keyed.webhooks.get({ projectId: project.id, id: endpoint.id }))?.readSecret()).toBe(secret);
    const listed = (await keyed.webhooks.list(project.id)).find((e) => e.id === endpoint.id);
    expect(listed?.readSecret()).toBe(secret);
    // The same secret again is another value: a fresh IV each time.
    const again = await add(keyed, secret);
    expect(await stored(again.id)).not.toBe(column);
    expect(again.readSecret()).toBe(secret);
  });

  it('a plain secret stored before the key was set is read unchanged with the key', async () => {
    const secret = newSecret();
    const endpoint = await add(plain, secret);
    expect(await stored(endpoint.id)).toBe(secret);
    expect((await keyed.webhooks.get({ projectId: project.id, id: endpoint.id }))?.readSecret()).toBe(secret);
    expect(await stored(endpoint.id)).toBe(secret);
  });

  it('without the key, or with another, an encrypted secret is refused naming the endpoint; the endpoint is still listed and leased', async () => {
    const endpoint = await add(keyed, newSecret());
    const other = await openStore({ webhookSecretsKey: newKey() });
    const refusal = (store: Store) => async () =>
      (await store.webhooks.get({ projectId: project.id, id: endpoint.id }))!.readSecret();

    await expect(refusal(plain)()).rejects.toThrow(WebhookSecretUnreadableError);
    await expect(refusal(plain)()).rejects.toMatchObject({ endpointId: endpoint.id, problem: 'no-key' });
    await expect(refusal(plain)()).rejects.toThrow(
      `webhook endpoint ${endpoint.id}: its signing secret is encrypted and this process has no WEBHOOK_SECRETS_KEY`,
    );
    await expect(refusal(other)()).rejects.toMatchObject({ endpointId: endpoint.id, problem: 'wrong-key' });
    await expect(refusal(other)()).rejects.toThrow(
      `webhook endpoint ${endpoint.id}: its signing secret is encrypted and WEBHOOK_SECRETS_KEY is not the key it was encrypted with`,
    );

    // Reading rows never needs the key: only reading the secret does.
    expect((await plain.webhooks.list(project.id)).map((e) => e.id)).toContain(endpoint.id);
    const { intentId } = await keyed.intents.insert(newIntent(project.id));
    await keyed.intents.updateStatus({ intentId, to: 'COMMITTED' });
    const leased = await plain.webhooks.leaseDue({ owner: 'no-key', leaseMs: 10_000, limit: 100 });
    expect(leased.map((e) => e.id)).toContain(endpoint.id);
    for (const e of leased) await plain.webhooks.release({ id: e.id, owner: 'no-key' });
  });

  it('encryptSecrets encrypts every plain secret in place, once; a store without the key refuses', async () => {
    const secrets = [newSecret(), newSecret()];
    const endpoints = await Promise.all(secrets.map((s) => add(plain, s)));
    const plainBefore = await rawQuery<{ n: number | string }>(
      database(),
      `SELECT COUNT(*) AS n FROM webhook_endpoints WHERE secret NOT LIKE 'enc:%'`,
    );
    expect(Number(plainBefore[0]!.n)).toBeGreaterThanOrEqual(2);

    await expect(plain.webhooks.encryptSecrets()).rejects.toThrow(ConfigError);
    await expect(plain.webhooks.encryptSecrets()).rejects.toThrow(/^WEBHOOK_SECRETS_KEY is not set/);

    expect(await keyed.webhooks.encryptSecrets()).toEqual({
      encrypted: Number(plainBefore[0]!.n),
      reencrypted: 0,
      upgraded: 0,
      unreadable: [],
    });
    expect(await keyed.webhooks.encryptSecrets()).toEqual({
      encrypted: 0,
      reencrypted: 0,
      upgraded: 0,
      unreadable: [],
    });
    for (const [i, endpoint] of endpoints.entries()) {
      const column = await stored(endpoint.id);
      expect(column).toMatch(/^enc:v2:/);
      expect(column).not.toContain(secrets[i]);
      const read = await keyed.webhooks.get({ projectId: project.id, id: endpoint.id });
      expect(read?.readSecret()).toBe(secrets[i]);
    }
  });

  it('rotating the key: encryptSecrets with the previous key re-encrypts what it opens under the new one, once, and names what neither opens', async () => {
    const oldKey = newKey();
    const lost = newKey();
    const [oldStore, lostStore, rotating] = [
      await openStore({ webhookSecretsKey: oldKey }),
      await openStore({ webhookSecretsKey: lost }),
      await openStore({ webhookSecretsKey: key, webhookSecretsPreviousKey: oldKey }),
    ];
    const secrets = [newSecret(), newSecret()];
    const rotated = await Promise.all(secrets.map((s) => add(oldStore, s)));
    const orphan = await add(lostStore, newSecret());
    const before = await stored(rotated[0]!.id);

    // Without the previous key the new one opens none of them: named, left as they are.
    const unrotated = await keyed.webhooks.encryptSecrets();
    expect(unrotated.reencrypted).toBe(0);
    expect(unrotated.unreadable).toEqual(expect.arrayContaining([...rotated.map((e) => e.id), orphan.id]));
    expect(await stored(rotated[0]!.id)).toBe(before);

    const first = await rotating.webhooks.encryptSecrets();
    expect(first).toMatchObject({ encrypted: 0, reencrypted: 2, upgraded: 0 });
    expect(first.unreadable).toContain(orphan.id);
    expect(first.unreadable).not.toContain(rotated[0]!.id);
    expect((await rotating.webhooks.encryptSecrets()).reencrypted).toBe(0);
    for (const [i, endpoint] of rotated.entries()) {
      expect(await stored(endpoint.id)).not.toBe(before);
      expect((await keyed.webhooks.get({ projectId: project.id, id: endpoint.id }))?.readSecret()).toBe(
        secrets[i],
      );
      // The old key no longer opens it: a process still started with it is refused, not misled.
      await expect(
        (async () =>
          (await oldStore.webhooks.get({ projectId: project.id, id: endpoint.id }))!.readSecret())(),
      ).rejects.toMatchObject({ problem: 'wrong-key' });
    }
    await lostStore.webhooks.remove({ projectId: project.id, id: orphan.id });
  });

  it("a v2 value copied into another endpoint's row does not open there, nor swapped values in either row", async () => {
    const [secretA, secretB] = [newSecret(), newSecret()];
    const [a, b] = [await add(keyed, secretA), await add(keyed, secretB)];
    const [columnA, columnB] = [await stored(a.id), await stored(b.id)];
    await setStored(a.id, columnB);
    await setStored(b.id, columnA);
    for (const id of [a.id, b.id])
      await expect(readBy(keyed, id)).rejects.toMatchObject({ endpointId: id, problem: 'wrong-key' });
    await expect(readBy(keyed, a.id)).rejects.toThrow("or is another endpoint's");
    // encryptSecrets does not launder them: named, left as they are.
    const run = await keyed.webhooks.encryptSecrets();
    expect(run.unreadable).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await stored(a.id)).toBe(columnB);
    // Each back in its own row opens again.
    await setStored(a.id, columnA);
    await setStored(b.id, columnB);
    expect([await readBy(keyed, a.id), await readBy(keyed, b.id)]).toEqual([secretA, secretB]);
    for (const id of [a.id, b.id]) await keyed.webhooks.remove({ projectId: project.id, id });
  });

  it("a deleted endpoint's v2 value does not open in a later endpoint that took its id (SQLite) or any other", async () => {
    // Every reading of this store's clock is a second later: were create to bind another reading than the
    // created_at it inserted, its own value would not open.
    let clock = Date.now();
    const tick = () => {
      clock += 1_000;
      return new Date(clock);
    };
    const ticking = await openStore({ webhookSecretsKey: key, now: tick });
    const a = await add(ticking, newSecret());
    const columnA = await stored(a.id);
    // A is the highest-numbered endpoint, so on SQLite (no AUTOINCREMENT) deleting it frees its id.
    const [highest] = await rawQuery<{ id: number | string }>(
      database(),
      'SELECT MAX(id) AS id FROM webhook_endpoints',
    );
    expect(Number(highest!.id)).toBe(a.id);
    expect(await ticking.webhooks.remove({ projectId: project.id, id: a.id })).toBe(true);

    const secretB = newSecret();
    const b = await add(ticking, secretB);
    if (dialect === 'sqlite') expect(b.id).toBe(a.id);
    else expect(b.id).not.toBe(a.id);
    expect(b.projectId).toBe(a.projectId);
    expect(b.createdAt.getTime()).toBeGreaterThan(a.createdAt.getTime());
    const [row] = await rawQuery<{ created_at: number | string }>(
      database(),
      `SELECT created_at FROM webhook_endpoints WHERE id = ${b.id}`,
    );
    expect(Number(row!.created_at)).toBe(b.createdAt.getTime());
    const columnB = await stored(b.id);
    expect(await readBy(keyed, b.id)).toBe(secretB);

    // A's value (say, from a backup taken before the delete) written into B's row: same id on SQLite, same
    // project, another creation time, refused.
    await setStored(b.id, columnA);
    await expect(readBy(keyed, b.id)).rejects.toThrow(WebhookSecretUnreadableError);
    await expect(readBy(keyed, b.id)).rejects.toMatchObject({ endpointId: b.id, problem: 'wrong-key' });
    expect((await keyed.webhooks.encryptSecrets()).unreadable).toContain(b.id);
    expect(await stored(b.id)).toBe(columnA);
    await setStored(b.id, columnB);
    expect(await readBy(keyed, b.id)).toBe(secretB);
    await keyed.webhooks.remove({ projectId: project.id, id: b.id });
  });

  it('an enc:v1: value is read as it is, and encryptSecrets upgrades it to v2 in place, once', async () => {
    const secret = newSecret();
    const endpoint = await add(keyed, newSecret());
    const v1 = legacyV1Secret(key, secret);
    await setStored(endpoint.id, v1);
    expect(await readBy(keyed, endpoint.id)).toBe(secret);

    const first = await keyed.webhooks.encryptSecrets();
    expect(first).toMatchObject({ encrypted: 0, reencrypted: 0, upgraded: 1 });
    expect(first.unreadable).not.toContain(endpoint.id);
    const column = await stored(endpoint.id);
    expect(column).toMatch(/^enc:v2:/);
    expect(await readBy(keyed, endpoint.id)).toBe(secret);
    expect((await keyed.webhooks.encryptSecrets()).upgraded).toBe(0);
    // Now bound: the same value in another row no longer opens, as the v1 one would have.
    const other = await add(keyed, newSecret());
    await setStored(other.id, column);
    await expect(readBy(keyed, other.id)).rejects.toMatchObject({ problem: 'wrong-key' });
    for (const id of [endpoint.id, other.id]) await keyed.webhooks.remove({ projectId: project.id, id });
  });

  it('a store with the new key and the previous one reads secrets under either, writes under the new one only', async () => {
    const previousKey = newKey();
    const previous = await openStore({ webhookSecretsKey: previousKey });
    const rotating = await openStore({ webhookSecretsKey: key, webhookSecretsPreviousKey: previousKey });
    const [oldSecret, oldV1Secret, newSecretValue] = [newSecret(), newSecret(), newSecret()];
    const underPrevious = await add(previous, oldSecret);
    const v1UnderPrevious = await add(previous, newSecret());
    await setStored(v1UnderPrevious.id, legacyV1Secret(previousKey, oldV1Secret));
    const added = await add(rotating, newSecretValue);

    expect(await readBy(rotating, underPrevious.id)).toBe(oldSecret);
    expect(await readBy(rotating, v1UnderPrevious.id)).toBe(oldV1Secret);
    expect(await readBy(rotating, added.id)).toBe(newSecretValue);
    // What it wrote is under the new key: a process with the new key alone reads it, one with the old cannot.
    expect(await readBy(keyed, added.id)).toBe(newSecretValue);
    await expect(readBy(previous, added.id)).rejects.toMatchObject({ problem: 'wrong-key' });
    // Without the previous key, the new one alone is refused the old secrets.
    await expect(readBy(keyed, underPrevious.id)).rejects.toMatchObject({ problem: 'wrong-key' });
    // A value neither key opens says both were tried.
    const stranger = await add(await openStore({ webhookSecretsKey: newKey() }), newSecret());
    await expect(readBy(rotating, stranger.id)).rejects.toThrow(
      `webhook endpoint ${stranger.id}: its signing secret is encrypted and neither WEBHOOK_SECRETS_KEY nor ` +
        'WEBHOOK_SECRETS_PREVIOUS_KEY is the key it was encrypted with',
    );
    for (const e of [underPrevious, v1UnderPrevious, added, stranger])
      await rotating.webhooks.remove({ projectId: project.id, id: e.id });
  });
});
