/**
 * `switchyard webhooks test`: a ping to one endpoint, now, from the command's own process (the operator sees
 * the answer at once), signed like every delivery and recorded in the endpoint's delivery log. Its id is 0,
 * which no event has.
 */
import { PING_EVENT_TYPE } from '../events/event-types.ts';
import type { Store, WebhookEndpoint } from '../store/index.ts';
import { createPostAgents, type PostOutcome } from './post-webhook.ts';
import { sendDelivery } from './send-delivery.ts';

export const PING_EVENT_ID = 0;

export async function sendPing(
  store: Pick<Store, 'webhooks'>,
  endpoint: WebhookEndpoint,
  options: { allowPrivateTargets: boolean; now?: () => Date },
): Promise<PostOutcome> {
  const at = options.now?.() ?? new Date();
  const body = JSON.stringify({
    id: PING_EVENT_ID,
    type: PING_EVENT_TYPE,
    createdAt: at.toISOString(),
    data: { endpointId: endpoint.id },
  });
  // Its own connections, closed after: a kept-alive socket would hold the command's process open.
  const agents = createPostAgents();
  const outcome = await sendDelivery(
    // A secret this process cannot decrypt throws here, before anything is sent or recorded.
    { url: endpoint.url, secret: endpoint.readSecret() },
    { id: PING_EVENT_ID, type: PING_EVENT_TYPE, body },
    { allowPrivateTargets: options.allowPrivateTargets, agents, now: () => at },
  ).finally(() => {
    agents.http.destroy();
    agents.https.destroy();
  });
  await store.webhooks.recordDelivery({
    endpointId: endpoint.id,
    delivery: {
      eventSeq: PING_EVENT_ID,
      eventType: PING_EVENT_TYPE,
      attempt: 1,
      statusCode: outcome.status,
      error: outcome.error,
      latencyMs: outcome.latencyMs,
    },
  });
  return outcome;
}
