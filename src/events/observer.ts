/**
 * Hooks for whoever counts what the event stream and the webhooks do (the Prometheus listener). Every
 * member is optional and is called synchronously; it must not throw.
 */
export interface WebhookAttemptOutcome {
  endpointId: number;
  /** The event's number, or 0 for a ping. */
  eventId: number;
  type: string;
  /** 1 for the first try of this event at this endpoint. */
  attempt: number;
  /** A 2xx answer. */
  ok: boolean;
  /** The HTTP status; null when no answer came (refused, timed out, blocked by the target guard). */
  status: number | null;
  latencyMs: number;
}

export interface EventsObserver {
  /** The number of open event streams in this process, after one opened or closed. */
  streamsChanged?(open: number): void;
  /** A webhook delivery attempt ended (success or failure). */
  webhookAttempt?(outcome: WebhookAttemptOutcome): void;
  /** An endpoint's retries ran out: it is marked failing and gets nothing until it is resumed. */
  endpointFailing?(endpointId: number): void;
}
