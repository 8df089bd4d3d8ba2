/**
 * The webhook dispatcher against a real HTTP receiver on loopback, on SQLite and on Postgres, with intents
 * changed through the store: signed deliveries (checked with docs/webhooks.md's own snippet) in event order,
 * event type filters, a receiver down for a while getting every event later and in order, retries running
 * out (the endpoint failing, then resumed), the target guard, and two dispatchers (two processes on Postgres)
 * never delivering one event twice; secrets encrypted at rest (WEBHOOK_SECRETS_KEY) signing as the plain
 * secret, a process without the key, or with another, holding the events back until one with the key
 * delivers them, and, mid-rotation, a process with the new key and the previous one delivering for a secret
 * still under the previous key. With devnet intents and the official client: test/webhooks/webhooks.test.ts.
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createSilentLogger, type Logger } from '../../src/internal/logger.ts';
import { newIntent, randomHash } from '../../src/store/testing.ts';
import type { Store } from '../../src/store/types.ts';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../../src/webhooks/create-webhook-dispatcher.ts';
import { describeEachDialect } from '../harness/database.ts';
import { loadDocsVerifier, type VerifySignature } from './support/docs-snippet.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';

/** Test timings: polls and retries in tens of milliseconds instead of production's seconds. */
const FAST: WebhookDispatcherOptions = {
  pollMs: 50,
  retry: { baseMs: 50, maxDelayMs: 400, windowMs: 60_000 },
};

let verify: VerifySignature;
beforeAll(async () => {
  verify = await loadDocsVerifier();
});

describeEachDialect('webhook dispatcher', ({ dialect, openStore }) => {
  let store: Store;
  let receiver: Receiver;
  const running: WebhookDispatcher[] = [];
  let projectId: number;

  beforeAll(async () => {
    store = await openStore();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((d) => d.stop()));
    // Each test's endpoints go with it, so the next test's dispatchers deliver only to its own.
    for (const { id, projectId: owner } of created.splice(0))
      await store.webhooks.remove({ projectId: owner, id });
    receiver.received.length = 0;
    receiver.answer = () => 204;
    await receiver.start().catch(() => {});
  });
  afterAll(() => receiver.stop());

  const dispatcher = (options: WebhookDispatcherOptions = FAST, allowPrivateTargets = true, on = store) => {
    const d = createWebhookDispatcher({ store: on, log: createSilentLogger(), allowPrivateTargets, options });
    running.push(d);
    d.start();
    return d;
  };
  const project = async (name: string) => {
    projectId = (await store.projects.create(`${name}-${dialect}`)).id;
    return projectId;
  };
  const created: { id: number; projectId: number }[] = [];
  const endpoint = async (eventTypes = ['*'], on = store) => {
    const hook = await on.webhooks.create({
      projectId,
      url: receiver.url,
      secret: `whsec_${randomHash()}`,
      eventTypes,
    });
    created.push(hook);
    return hook;
  };
  /** Commit, deposit pending, execute, succeed: 4 events. */
  const runIntent = async () => {
    const { intentId } = await store.intents.insert(newIntent(projectId));
    await store.intents.updateStatus({ intentId, to: 'COMMITTED' });
    await store.transactions.advance({
      intentId,
      kind: 'deposit',
      chainId: 1,
      status: 'PENDING',
      txnHash: randomHash(),
      from: ['UNKNOWN'],
    });
    await store.intents.updateStatus({ intentId, to: 'EXECUTING' });
    await store.intents.updateStatus({ intentId, to: 'SUCCEEDED' });
    return intentId;
  };
  const ids = () => receiver.received.map((r) => r.json.id);

  it('delivers every event in order, signed: the docs snippet verifies each, and refuses a tampered one', async () => {
    await project('signed');
    const hook = await endpoint();
    dispatcher();
    const first = await runIntent();
    await runIntent();
    await receiver.until((r) => r.length === 8);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const r of receiver.received) {
      const header = String(r.headers['switchyard-signature']);
      expect(verify(hook.readSecret(), header, r.body)).toBe(true);
      expect(verify(hook.readSecret(), header, `${r.body} `)).toBe(false);
      expect(verify('whsec_other', header, r.body)).toBe(false);
      expect(r.headers['switchyard-event-id']).toBe(String(r.json.id));
      expect(r.headers['switchyard-event-type']).toBe(r.json.type);
      expect(r.headers['content-type']).toBe('application/json');
    }
    // A signature older than the tolerance is refused: a captured delivery cannot be replayed later.
    const stale = String(receiver.received[0]!.headers['switchyard-signature']).replace(
      /t=(\d+)/,
      (_, t) => `t=${Number(t) - 600}`,
    );
    expect(verify(hook.readSecret(), stale, receiver.received[0]!.body)).toBe(false);
    expect(receiver.received.slice(0, 4).map((r) => [r.json.type, r.json.data.intentId])).toEqual([
      ['intent.committed', first],
      ['transaction.deposit', first],
      ['intent.executing', first],
      ['intent.succeeded', first],
    ]);
    // Each delivery is recorded once its answer came (the receiver saw it a moment before).
    await waitFor(
      async () => (await store.webhooks.deliveries({ endpointId: hook.id, limit: 20 })).length === 8,
    );
    const log = await store.webhooks.deliveries({ endpointId: hook.id, limit: 20 });
    expect(log.map((d) => [d.eventSeq, d.attempt, d.statusCode, d.ok])).toEqual(
      [8, 7, 6, 5, 4, 3, 2, 1].map((seq) => [seq, 1, 204, true]),
    );
  });

  it('sends only the types an endpoint subscribes to, and its cursor moves past the others', async () => {
    await project('filtered');
    const hook = await endpoint(['intent.succeeded', 'transaction.*']);
    dispatcher();
    await runIntent();
    await runIntent();
    await receiver.until((r) => r.length === 4);
    expect(receiver.received.map((r) => [r.json.id, r.json.type])).toEqual([
      [2, 'transaction.deposit'],
      [4, 'intent.succeeded'],
      [6, 'transaction.deposit'],
      [8, 'intent.succeeded'],
    ]);
    await waitFor(async () => (await store.webhooks.get({ projectId, id: hook.id }))?.handledSeq === 8);
  });

  it('with the receiver down for a while, every event arrives later, in order', async () => {
    await project('down');
    const hook = await endpoint();
    dispatcher();
    await receiver.stop();
    for (let i = 0; i < 3; i++) await runIntent();
    // Attempts fail (refused) and are retried with backoff meanwhile.
    await waitFor(async () => (await store.webhooks.get({ projectId, id: hook.id }))!.attempts >= 3);
    expect(receiver.received).toEqual([]);
    await receiver.start();
    await receiver.until((r) => r.length === 12);
    expect(ids()).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const log = await store.webhooks.deliveries({ endpointId: hook.id, limit: 100 });
    const firstEvent = log.filter((d) => d.eventSeq === 1).reverse();
    expect(firstEvent.length).toBeGreaterThanOrEqual(4);
    expect(
      firstEvent
        .slice(0, -1)
        .every((d) => !d.ok && d.statusCode === null && /ECONNREFUSED/.test(d.error ?? '')),
    ).toBe(true);
    expect(firstEvent.map((d) => d.attempt)).toEqual(firstEvent.map((_, i) => i + 1));
    expect(firstEvent.at(-1)).toMatchObject({ ok: true, statusCode: 204 });
    // No event went before an earlier one: each was attempted only after the one before it succeeded.
    expect(log.filter((d) => d.eventSeq > 1).every((d) => d.ok && d.attempt === 1)).toBe(true);
  });

  it('an endpoint whose retries run out is marked failing; resumed, it gets everything from where it stopped', async () => {
    await project('failing');
    const hook = await endpoint();
    const failing: number[] = [];
    const d = createWebhookDispatcher({
      store,
      log: createSilentLogger(),
      allowPrivateTargets: true,
      observer: { endpointFailing: (id) => failing.push(id) },
      options: { ...FAST, retry: { baseMs: 50, maxDelayMs: 100, windowMs: 500 } },
    });
    running.push(d);
    d.start();
    receiver.answer = () => 503;
    await runIntent();
    await waitFor(async () => (await store.webhooks.get({ projectId, id: hook.id }))!.state === 'failing');
    expect(failing).toEqual([hook.id]);
    const log = await store.webhooks.deliveries({ endpointId: hook.id, limit: 100 });
    expect(new Set(log.map((x) => [x.eventSeq, x.statusCode].join()))).toEqual(new Set(['1,503']));
    receiver.answer = () => 200;
    await runIntent();
    // Failing: nothing goes out, however long.
    await sleep(300);
    expect(receiver.received).toEqual([]);
    expect(await store.webhooks.reactivate({ projectId, id: hook.id })).toBe(true);
    await receiver.until((r) => r.length === 8);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('refuses a loopback target unless private targets are allowed, and records why', async () => {
    await project('guarded');
    const hook = await endpoint();
    dispatcher(FAST, false);
    await runIntent();
    await waitFor(
      async () => (await store.webhooks.deliveries({ endpointId: hook.id, limit: 1 })).length > 0,
    );
    const [attempt] = await store.webhooks.deliveries({ endpointId: hook.id, limit: 1 });
    expect(attempt).toMatchObject({ eventSeq: 1, statusCode: null, ok: false });
    expect(attempt!.error).toContain('is a loopback or private-range address');
    expect(receiver.received).toEqual([]);
  });

  it('with WEBHOOK_SECRETS_KEY, deliveries are signed with the plain secret, which the column does not hold', async () => {
    await project('encrypted');
    const keyed = await openStore({ webhookSecretsKey: createSecretKey(randomBytes(32)) });
    const secret = `whsec_${randomHash()}`;
    const hook = await keyed.webhooks.create({ projectId, url: receiver.url, secret, eventTypes: ['*'] });
    created.push(hook);
    // The same row read by a store without the key: encrypted, so it cannot sign with it.
    const unkeyed = await store.webhooks.get({ projectId, id: hook.id });
    expect(() => unkeyed!.readSecret()).toThrow(/has no WEBHOOK_SECRETS_KEY/);
    dispatcher(FAST, true, keyed);
    await runIntent();
    await receiver.until((r) => r.length === 4);
    for (const r of receiver.received)
      expect(verify(secret, String(r.headers['switchyard-signature']), r.body)).toBe(true);
  });

  it('a process without the key, or with another, logs why, records failed attempts and delivers nothing; one with the key then delivers every event', async () => {
    await project('no-key');
    const key = createSecretKey(randomBytes(32));
    const keyed = await openStore({ webhookSecretsKey: key });
    const wrong = await openStore({ webhookSecretsKey: createSecretKey(randomBytes(32)) });
    const secret = `whsec_${randomHash()}`;
    const hook = await keyed.webhooks.create({ projectId, url: receiver.url, secret, eventTypes: ['*'] });
    created.push(hook);
    await runIntent();
    for (const [on, cause] of [
      [store, 'this process has no WEBHOOK_SECRETS_KEY'],
      [wrong, 'WEBHOOK_SECRETS_KEY is not the key it was encrypted with'],
    ] as const) {
      const warnings: string[] = [];
      const recording: Logger = {
        debug: () => {},
        info: () => {},
        warn: (msg) => warnings.push(msg),
        error: () => {},
        child: () => recording,
      };
      const d = createWebhookDispatcher({
        store: on,
        log: recording,
        allowPrivateTargets: true,
        options: FAST,
      });
      running.push(d);
      d.start();
      const message = `webhook endpoint ${hook.id}: its signing secret is encrypted and ${cause}`;
      await waitFor(async () =>
        (await store.webhooks.deliveries({ endpointId: hook.id, limit: 100 })).some((x) =>
          x.error?.startsWith(message),
        ),
      );
      await d.stop();
      expect(warnings.some((w) => w.startsWith(message))).toBe(true);
    }
    // Nothing went out and nothing was marked delivered: the cursor is where it was, the endpoint active.
    expect(receiver.received).toEqual([]);
    const held = await store.webhooks.get({ projectId, id: hook.id });
    expect(held).toMatchObject({ handledSeq: 0, state: 'active' });
    expect(held!.attempts).toBeGreaterThanOrEqual(2);
    const log = await store.webhooks.deliveries({ endpointId: hook.id, limit: 100 });
    expect(log.every((x) => !x.ok && x.statusCode === null && x.eventSeq === 1)).toBe(true);
    // The configuration fixed: the next attempt delivers, in order, signed with the plain secret.
    dispatcher(FAST, true, keyed);
    await receiver.until((r) => r.length === 4);
    expect(ids()).toEqual([1, 2, 3, 4]);
    for (const r of receiver.received)
      expect(verify(secret, String(r.headers['switchyard-signature']), r.body)).toBe(true);
  });

  it('mid-rotation, a process with the new key and WEBHOOK_SECRETS_PREVIOUS_KEY signs with a secret still under the previous key', async () => {
    await project('rotating');
    const previousKey = createSecretKey(randomBytes(32));
    const newKey = createSecretKey(randomBytes(32));
    const previous = await openStore({ webhookSecretsKey: previousKey });
    const secret = `whsec_${randomHash()}`;
    const hook = await previous.webhooks.create({ projectId, url: receiver.url, secret, eventTypes: ['*'] });
    created.push(hook);
    // encrypt-secrets has not run: the new key alone cannot open it.
    const newOnly = await openStore({ webhookSecretsKey: newKey });
    await expect(
      newOnly.webhooks.get({ projectId, id: hook.id }).then((e) => e!.readSecret()),
    ).rejects.toThrow('WEBHOOK_SECRETS_KEY is not the key it was encrypted with');
    const rotating = await openStore({ webhookSecretsKey: newKey, webhookSecretsPreviousKey: previousKey });
    dispatcher(FAST, true, rotating);
    await runIntent();
    await receiver.until((r) => r.length === 4);
    expect(ids()).toEqual([1, 2, 3, 4]);
    for (const r of receiver.received)
      expect(verify(secret, String(r.headers['switchyard-signature']), r.body)).toBe(true);
    // Recorded as delivered, with no failed attempt before: the secret opened on the first try.
    const log = () => store.webhooks.deliveries({ endpointId: hook.id, limit: 100 });
    await waitFor(async () => (await log()).length === 4);
    expect((await log()).map((d) => [d.eventSeq, d.ok])).toEqual([4, 3, 2, 1].map((seq) => [seq, true]));
  });

  it('two dispatchers (two processes on Postgres) deliver each event once', async () => {
    await project('two');
    const hooks = await Promise.all([endpoint(), endpoint(), endpoint()]);
    const other = dialect === 'postgres' ? await openStore() : store;
    dispatcher();
    dispatcher(FAST, true, other);
    for (let i = 0; i < 5; i++) await runIntent();
    await receiver.until((r) => r.length === 60);
    await sleep(300);
    // Each endpoint got 1..20 exactly once, in order.
    const byEndpoint = new Map<string, number[]>();
    for (const r of receiver.received) {
      const secretHeader = String(r.headers['switchyard-signature']);
      const hook = hooks.find((h) => verify(h.readSecret(), secretHeader, r.body))!;
      byEndpoint.set(String(hook.id), [...(byEndpoint.get(String(hook.id)) ?? []), r.json.id]);
    }
    expect([...byEndpoint.values()]).toEqual(hooks.map(() => Array.from({ length: 20 }, (_, i) => i + 1)));
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(20);
  }
}
