/**
 * The names of events, and the patterns a webhook endpoint subscribes with. A change of an intent's status
 * is `intent.<status>` (lower case); a change of one receipt transaction's status is
 * `transaction.<kind>`; `ping` is what `switchyard webhooks test` sends.
 */
import { INTENT_STATUSES, type IntentEventRecord, TRANSACTION_KINDS } from '../store/index.ts';
import { InvalidEventTypesError } from './errors.ts';

export const PING_EVENT_TYPE = 'ping';

/** Every type an event can have (ping included), in a stable order for help texts and docs. */
export const EVENT_TYPES: readonly string[] = [
  ...INTENT_STATUSES.filter((s) => s !== 'QUOTED').map((s) => `intent.${s.toLowerCase()}`),
  ...TRANSACTION_KINDS.map((k) => `transaction.${k}`),
  PING_EVENT_TYPE,
];

export function eventTypeOf(event: IntentEventRecord): string {
  return event.transactionKind === null
    ? `intent.${event.status.toLowerCase()}`
    : `transaction.${event.transactionKind}`;
}

/** Every event type (`*`), an exact type, or every type under a prefix (`intent.*`). */
export type EventTypePatterns = readonly string[];

export const ALL_EVENT_TYPES: EventTypePatterns = ['*'];

/**
 * A comma-separated list of patterns as an operator writes it (`intent.succeeded,transaction.*`); a
 * pattern that matches no type is refused, naming it and listing the types.
 */
export function parseEventTypes(list: string): EventTypePatterns {
  const patterns = list
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (patterns.length === 0) throw new InvalidEventTypesError(list, 'names no event type');
  for (const pattern of patterns) {
    if (!EVENT_TYPES.some((type) => matchesPattern(pattern, type)))
      throw new InvalidEventTypesError(pattern, 'is not an event type or a prefix of one');
  }
  return patterns.includes('*') ? ALL_EVENT_TYPES : patterns;
}

export function matchesEventTypes(patterns: EventTypePatterns, type: string): boolean {
  return patterns.some((pattern) => matchesPattern(pattern, type));
}

function matchesPattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}
