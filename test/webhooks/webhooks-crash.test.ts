/**
 * Webhooks across a crash: `switchyard serve` runs as a child process and kills itself with SIGKILL
 * (SWITCHYARD_DEBUG_CRASH_AT) between a state change and its delivery — before the POST, or after the
 * receiver answered but before the delivery was recorded — and is started again without the hook. Every
 * event of the intent must still reach the real receiver, in order, and a receiver that dedupes by `id`
 * sees each exactly once; killed after the answer, the event in flight is sent again (at least once).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/webhooks/signature.ts';
import { freshAddress, usdc } from '../e2e/support/requests.ts';
import { submitIntent, waitForTerminal } from '../resilience/support/intents.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, useResilienceSuite } from '../resilience/support/suite.ts';
import { loadDocsVerifier, type VerifySignature } from './support/docs-snippet.ts';
import { type Received, type Receiver, startReceiver } from './support/receiver.ts';

/**
 * From the start with the hook to the kill: a quote, its commit and the first delivery, a few seconds; a
 * loaded 2-core machine needs more (ms).
 */
const CRASH_FIRE_TIMEOUT_MS = 60_000;
/** After the restart the dead process's lease (15 s) runs out before the events go again (ms). */
const DELIVERY_TIMEOUT_MS = 90_000;

const suite = useResilienceSuite({
  start: false,
  service: () => ({ serveConfig: { webhooks: { allowPrivateTargets: true } } }),
});
let receiver: Receiver;
let verify: VerifySignature;
beforeAll(async () => {
  receiver = await startReceiver();
  verify = await loadDocsVerifier();
});
afterEach(async () => {
  await suite.svc?.kill();
});
afterAll(() => receiver?.stop());

/** What a receiver that dedupes by `id` keeps: the first delivery of each id. */
function deduped(received: Received[]): Received[] {
  const seen = new Set<number>();
  return received.filter((r) => !seen.has(r.json.id) && seen.add(r.json.id));
}

for (const point of ['webhook:before-post', 'webhook:delivered'] as const) {
  it(
    `killed at ${point}: after the restart every event arrives, in order, each once to a deduping receiver`,
    async () => {
      const { svc } = suite;
      receiver.received.length = 0;
      const project = await svc.store.projects.findByName('resilience');
      const hook = await svc.store.webhooks.create({
        projectId: project!.id,
        url: receiver.url,
        secret: newWebhookSecret(),
        eventTypes: ['*'],
      });
      try {
        const proc = await svc.start({ SWITCHYARD_DEBUG_CRASH_AT: point });
        const submitted = submitIntent(svc, alphaToBetaUsdc(suite, freshAddress(), usdc('25')), suite.queue);
        const how = await Promise.race([
          proc.exited,
          new Promise((resolve) => setTimeout(() => resolve('no crash'), CRASH_FIRE_TIMEOUT_MS)),
        ]);
        expect(how).toBe('SIGKILL');
        // Killed before the POST nothing arrived; after it, the receiver has the event the record missed.
        expect(receiver.received.length).toBe(point === 'webhook:before-post' ? 0 : 1);
        svc.forget();
        await svc.start();
        const { intentId } = await submitted;
        expect((await waitForTerminal(svc, intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
        const log = await svc.store.eventLog.listAfter({
          projectId: project!.id,
          after: hook.handledSeq,
          limit: 10_000,
        });
        expect(log.at(-1)).toMatchObject({ intentId, status: 'SUCCEEDED' });
        await receiver.until((r) => deduped(r).length >= log.length, DELIVERY_TIMEOUT_MS);
        await new Promise((resolve) => setTimeout(resolve, 500));

        expect(deduped(receiver.received).map((r) => r.json.id)).toEqual(log.map((e) => e.seq));
        for (const r of receiver.received)
          expect(verify(hook.readSecret(), String(r.headers['switchyard-signature']), r.body)).toBe(true);
        const ids = receiver.received.map((r) => r.json.id);
        if (point === 'webhook:delivered') {
          // The first event came twice (at least once), then the rest once each, in order.
          expect(ids).toEqual([log[0]!.seq, ...log.map((e) => e.seq)]);
        } else {
          expect(ids).toEqual(log.map((e) => e.seq));
        }
      } finally {
        await svc.store.webhooks.remove({ projectId: project!.id, id: hook.id });
      }
    },
    CRASH_FIRE_TIMEOUT_MS + INTENT_TIMEOUT_MS + DELIVERY_TIMEOUT_MS,
  );
}
