/**
 * GET /events on a devnet with the real engine, intents driven by the official client (`@0xtrails/api`): the
 * stream's events for an intent arrive in order and carry the states WaitIntentReceipt reports (every answer
 * of the client's long-poll loop is one of the stream's states, in the same order, down to the final one),
 * and a client that left mid-intent and reconnects with Last-Event-ID receives exactly the events it missed
 * (compared with a client that never left). Across a restart of the server: stream-restart.test.ts.
 */
import { TrailsApi, type TransactionStatus } from '@0xtrails/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WireEvent } from '../../src/events/wire-event.ts';
import { type E2eService, startE2eService } from '../e2e/support/e2e-fixture.ts';
import { usdc, usdcToSecondChain } from '../e2e/support/requests.ts';
import { runIntent, waitUntilDone } from '../e2e/support/run-intent.ts';
import { eventsOf, openSse, type SseConnection } from './support/sse-client.ts';

let svc: E2eService;
let api: TrailsApi;
const opened: SseConnection[] = [];
beforeAll(async () => {
  svc = await startE2eService();
  api = new TrailsApi(svc.key, { hostname: svc.url });
});
afterAll(async () => {
  for (const c of opened) c.close();
  await svc?.stop();
});

const connect = async (headers: Record<string, string> = {}) => {
  const c = await openSse(`${svc.url}/events`, { 'x-access-key': svc.key, ...headers });
  expect(c.status).toBe(200);
  opened.push(c);
  return c;
};
/** A stream from the project's latest event on, whenever its start completes. */
const fromNow = async () =>
  connect({ 'last-event-id': String(await svc.store.eventLog.latest(svc.projectId)) });
/** /rpc/Trails spells RELAYED as SENT; the stream uses the stored spelling. */
const canonical = (states: readonly string[]) => states.map((s) => (s === 'SENT' ? 'RELAYED' : s)).join();
const request = () => usdcToSecondChain(svc.net, usdc('15'));
const ofIntent = (events: WireEvent[], intentId: string) =>
  events.filter((e) => e.data.intentId === intentId);

it('an intent’s events arrive in order and carry the states WaitIntentReceipt reports', async () => {
  const watcher = await fromNow();
  const { intent, states, receipt } = await runIntent(svc, api, request());
  const done = (e: WireEvent) => e.data.intentId === intent.intentId && e.data.status === 'SUCCEEDED';
  await watcher.until((m) => eventsOf(m).some(done));
  const events = ofIntent(eventsOf(watcher.messages), intent.intentId);

  // In order: consecutive ids (this project runs nothing else meanwhile), SSE ids equal to the events' ids.
  expect(events.map((e) => e.id)).toEqual(events.map((_, i) => events[0]!.id + i));
  expect(watcher.messages.filter((m) => m.event === 'message').map((m) => Number(m.id))).toEqual(
    eventsOf(watcher.messages).map((e) => e.id),
  );
  expect(events[0]).toMatchObject({ type: 'intent.committed', data: { status: 'COMMITTED' } });
  expect(events.at(-1)).toMatchObject({ type: 'intent.succeeded', data: { status: 'SUCCEEDED' } });
  expect(events.at(-1)!.data.receiptStates).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
  // Each event is one change: the status, or one transaction's status, and nothing else.
  for (const [before, after] of events.slice(1).map((e, i) => [events[i]!, e] as const)) {
    const changed = after.data.receiptStates.filter((s, i) => s !== before.data.receiptStates[i]).length;
    if (after.type.startsWith('intent.'))
      expect([after.data.status !== before.data.status, changed]).toEqual([true, 0]);
    else {
      expect(changed).toBe(1);
      const kind = after.data.transaction!.kind;
      const index = ['deposit', 'origin', 'destination', 'refund'].indexOf(kind);
      expect(after.data.receiptStates[index]).toBe(after.data.transaction!.status);
    }
  }
  // Every answer WaitIntentReceipt gave is one of the stream's states, in the same order.
  const streamStates = events.map((e) => canonical(e.data.receiptStates));
  let from = 0;
  for (const answer of states) {
    const at = streamStates.indexOf(canonical(answer), from);
    expect({ answer, found: at >= 0 }).toEqual({ answer, found: true });
    from = at;
  }
  expect(canonical(states.at(-1)!)).toBe(streamStates.at(-1));
  // The deposit event names the deposit the receipt shows.
  const deposit = events.find(
    (e) => e.type === 'transaction.deposit' && e.data.transaction?.status === 'SUCCEEDED',
  );
  expect(deposit?.data.transaction?.txnHash).toBe(receipt.depositTransaction.txnHash);
});

it('a client that leaves mid-intent and reconnects with Last-Event-ID receives exactly the events it missed', async () => {
  // Both from the same event on.
  const latest = String(await svc.store.eventLog.latest(svc.projectId));
  const steady = await connect({ 'last-event-id': latest });
  const leaving = await connect({ 'last-event-id': latest });
  const { intent } = await api.quoteIntent(request());
  await api.commitIntent({ intent });
  const raw = intent.depositTransaction as unknown as { to: `0x${string}`; data: `0x${string}` };
  const origin = svc.chain(intent.originChainId);
  const hash = await origin.walletFor('user').sendTransaction({ to: raw.to, data: raw.data });
  await origin.publicClient.waitForTransactionReceipt({ hash });
  await api.executeIntent({ intentId: intent.intentId, depositTransactionHash: hash });
  // Leaves once it has seen the intent start executing, while the engine is still at work.
  await leaving.until((m) => eventsOf(m).some((e) => e.type === 'intent.executing'));
  const lastSeen = leaving.lastEventId()!;
  leaving.close();
  const { states } = await waitUntilDone(api, intent.intentId);
  expect((states.at(-1) as TransactionStatus[]).every((s) => s === 'SUCCEEDED')).toBe(true);
  await steady.until((m) =>
    eventsOf(m).some((e) => e.data.intentId === intent.intentId && e.data.status === 'SUCCEEDED'),
  );

  const back = await connect({ 'last-event-id': lastSeen });
  const missed = steady.messages.filter((m) => Number(m.id) > Number(lastSeen));
  expect(missed.length).toBeGreaterThan(0);
  await back.until((m) => m.length >= missed.length);
  // A duplicate or an extra event would show up within this.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(back.messages).toEqual(missed);
  // Seen before leaving plus received after coming back: the steady client's whole stream, once each.
  const seen = leaving.messages.filter((m) => Number(m.id) <= Number(lastSeen));
  expect([...seen, ...back.messages].map((m) => m.id)).toEqual(steady.messages.map((m) => m.id));
  expect(ofIntent(eventsOf(steady.messages), intent.intentId).at(-1)?.type).toBe('intent.succeeded');
});
