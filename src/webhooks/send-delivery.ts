/**
 * One delivery to one endpoint: the event's JSON as the body, signed (signature.ts), POSTed to the
 * endpoint's URL behind the target guard. A URL the guard refuses is a failed attempt like a refused
 * connection (recorded, retried, and in the end the endpoint marked failing), never a crash.
 */
import { SwitchyardError } from '../internal/errors.ts';
import { type PostAgents, type PostOutcome, postWebhook } from './post-webhook.ts';
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts';
import { checkWebhookUrl, guardedLookup } from './target-guard.ts';

export const USER_AGENT = 'Switchyard-Webhooks/1';

export interface DeliveryTarget {
  url: string;
  secret: string;
}

export interface DeliveryOptions {
  allowPrivateTargets: boolean;
  agents?: PostAgents | undefined;
  timeoutMs?: number | undefined;
  now?: (() => Date) | undefined;
}

export async function sendDelivery(
  target: DeliveryTarget,
  event: { id: number; type: string; body: string },
  options: DeliveryOptions,
): Promise<PostOutcome> {
  let url: URL;
  try {
    url = checkWebhookUrl(target.url, options.allowPrivateTargets);
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    return { status: null, error: error.message, latencyMs: 0 };
  }
  const unixSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  return postWebhook({
    url,
    body: event.body,
    headers: {
      'user-agent': USER_AGENT,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(target.secret, event.body, unixSeconds),
      'switchyard-event-id': String(event.id),
      'switchyard-event-type': event.type,
    },
    timeoutMs: options.timeoutMs,
    lookup: guardedLookup(options.allowPrivateTargets),
    agents: options.agents,
  });
}

/** Answers that count as delivered: any 2xx. A redirect is not followed and is a failure. */
const SUCCESS_STATUS_MIN = 200;
const SUCCESS_STATUS_MAX = 299;

export function isSuccess(outcome: PostOutcome): boolean {
  return (
    outcome.status !== null && outcome.status >= SUCCESS_STATUS_MIN && outcome.status <= SUCCESS_STATUS_MAX
  );
}
