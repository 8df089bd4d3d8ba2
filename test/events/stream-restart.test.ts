/**
 * The event stream across a restart of the server: `switchyard serve` runs as a child process (the
 * resilience harness), a client follows GET /events while an intent runs, the server is SIGKILLed mid-intent
 * and started again, the intent finishes on the new process, and the client reconnects with its
 * Last-Event-ID. It must receive exactly the events it missed: together with what it saw before the kill,
 * the project's whole event log once each, in order, as the log holds them.
 */
import { expect, it } from 'vitest';
import { toWireEvent } from '../../src/events/wire-event.ts';
import { freshAddress, usdc } from '../e2e/support/requests.ts';
import { submitIntent, waitForTerminal } from '../resilience/support/intents.ts';
import { alphaToBetaUsdc, INTENT_TIMEOUT_MS, useResilienceSuite } from '../resilience/support/suite.ts';
import { eventsOf, openSse } from './support/sse-client.ts';

const suite = useResilienceSuite();

it(
  'a client that reconnects with Last-Event-ID after serve was SIGKILLed and restarted receives exactly the events it missed',
  async () => {
    const { svc } = suite;
    const project = await svc.store.projects.findByName('resilience');
    const start = await svc.store.eventLog.latest(project!.id);
    const follow = (url: string, after: string) =>
      openSse(`${url}/events`, { 'x-access-key': svc.key, 'last-event-id': after });

    const before = await follow(svc.url(), String(start));
    expect(before.status).toBe(200);
    const submitted = submitIntent(svc, alphaToBetaUsdc(suite, freshAddress(), usdc('20')), suite.queue);
    // The kill comes after the first event (the commit); deposit and execution go to the next process.
    await before.until((m) => eventsOf(m).length >= 1);
    await svc.kill();
    await before.ended;
    const seen = eventsOf(before.messages);
    const lastSeen = before.lastEventId()!;

    await svc.start();
    const { intentId } = await submitted;
    expect((await waitForTerminal(svc, intentId, INTENT_TIMEOUT_MS)).status).toBe('SUCCEEDED');
    const log = await svc.store.eventLog.listAfter({ projectId: project!.id, after: start, limit: 10_000 });
    const missed = log.length - seen.length;
    expect(missed).toBeGreaterThan(0);

    const back = await follow(svc.url(), lastSeen);
    await back.until((m) => eventsOf(m).length >= missed);
    // A duplicate or an extra event would show up within this.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = eventsOf(back.messages);
    back.close();
    expect([...seen, ...after].map((e) => e.id)).toEqual(log.map((e) => e.seq));
    expect(after).toEqual(log.slice(seen.length).map((e) => JSON.parse(JSON.stringify(toWireEvent(e)))));
    expect(after.at(-1)).toMatchObject({ type: 'intent.succeeded', data: { intentId } });
  },
  INTENT_TIMEOUT_MS * 2,
);
