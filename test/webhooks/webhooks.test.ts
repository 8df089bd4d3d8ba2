/**
 * Webhooks on a devnet with the real engine, intents driven by the official client, and a real HTTP receiver
 * on loopback: every event of an intent is delivered in order, signed (checked with docs/webhooks.md's own
 * snippet), with the very bytes the event stream sends for the same id; with the receiver down for a while,
 * the events of an intent that ran meanwhile all arrive later, in order, once each, and the delivery log
 * shows the refused attempts. The service runs with WEBHOOK_SECRETS_KEY, so the secret is stored encrypted
 * and each delivery is signed with the plain one. Crashes of `serve` between a change and its delivery: webhooks-crash.test.ts.
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { TrailsApi } from '@0xtrails/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../src/store/types.ts';
import { newWebhookSecret } from '../../src/webhooks/signature.ts';
import { type E2eService, startE2eService } from '../e2e/support/e2e-fixture.ts';
import { usdc, usdcToSecondChain } from '../e2e/support/requests.ts';
import { runIntent } from '../e2e/support/run-intent.ts';
import { eventsOf, openSse } from '../events/support/sse-client.ts';
import { loadDocsVerifier, type VerifySignature } from './support/docs-snippet.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';

let svc: E2eService;
let api: TrailsApi;
let receiver: Receiver;
let verify: VerifySignature;
let hook: WebhookEndpoint;
let secret: string;
beforeAll(async () => {
  svc = await startE2eService({ webhookSecretsKey: createSecretKey(randomBytes(32)) });
  api = new TrailsApi(svc.key, { hostname: svc.url });
  receiver = await startReceiver();
  verify = await loadDocsVerifier();
  secret = newWebhookSecret();
  hook = await svc.store.webhooks.create({
    projectId: svc.projectId,
    url: receiver.url,
    secret,
    eventTypes: ['*'],
  });
  // Stored encrypted already: the service's store has the key from its config.
  expect((await svc.store.webhooks.encryptSecrets()).encrypted).toBe(0);
});
afterAll(async () => {
  await receiver?.stop();
  await svc?.stop();
});

const request = () => usdcToSecondChain(svc.net, usdc('12'));
const succeeded = (intentId: string) => (r: { json: { type: string; data: Record<string, unknown> } }) =>
  r.json.type === 'intent.succeeded' && r.json.data.intentId === intentId;

it('delivers an intent’s events in order, signed, with the bytes the stream sends for the same ids', async () => {
  const stream = await openSse(`${svc.url}/events`, {
    'x-access-key': svc.key,
    'last-event-id': String(hook.handledSeq),
  });
  const { intent } = await runIntent(svc, api, request());
  await receiver.until((r) => r.some(succeeded(intent.intentId)));
  await stream.until((m) => eventsOf(m).length >= receiver.received.length);
  stream.close();

  const ids = receiver.received.map((r) => r.json.id);
  expect(ids).toEqual(ids.map((_, i) => hook.handledSeq + 1 + i));
  for (const r of receiver.received) {
    expect(verify(secret, String(r.headers['switchyard-signature']), r.body)).toBe(true);
    expect(r.json.data.intentId).toBe(intent.intentId);
  }
  expect(receiver.received[0]!.json.type).toBe('intent.committed');
  // The webhook body is the stream message's data, byte for byte.
  const byId = new Map(stream.messages.map((m) => [m.id, m.data]));
  for (const r of receiver.received) expect(r.body).toBe(byId.get(String(r.json.id)));
});

it('with the receiver down for a while, every event arrives later, in order, once each', async () => {
  const lastDelivered = receiver.received.at(-1)!.json.id;
  await receiver.stop();
  receiver.received.length = 0;
  const { intent } = await runIntent(svc, api, request());
  const log = await svc.store.eventLog.listAfter({
    projectId: svc.projectId,
    after: lastDelivered,
    limit: 1000,
  });
  expect(log.at(-1)).toMatchObject({ intentId: intent.intentId, status: 'SUCCEEDED' });
  // Refused meanwhile: the first waiting event's attempts are in the log, and nothing arrived.
  const refused = await svc.store.webhooks.deliveries({ endpointId: hook.id, limit: 5 });
  expect(refused[0]).toMatchObject({ eventSeq: lastDelivered + 1, statusCode: null, ok: false });
  expect(refused[0]!.error).toMatch(/ECONNREFUSED/);

  await receiver.start();
  await receiver.until((r) => r.some(succeeded(intent.intentId)), 90_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(receiver.received.map((r) => r.json.id)).toEqual(log.map((e) => e.seq));
  expect(receiver.received.map((r) => r.json.type)).toEqual(
    log.map((e) =>
      e.transactionKind ? `transaction.${e.transactionKind}` : `intent.${e.status.toLowerCase()}`,
    ),
  );
});
