import { expect, it } from 'vitest';
import { EVENT_TYPES, matchesEventTypes, parseEventTypes } from './event-types.ts';

it('lists every status change but the quote, every receipt transaction, and the ping', () => {
  expect(EVENT_TYPES).toEqual([
    'intent.committed',
    'intent.executing',
    'intent.succeeded',
    'intent.failed',
    'intent.refunded',
    'intent.aborted',
    'intent.invalid',
    'transaction.deposit',
    'transaction.origin',
    'transaction.destination',
    'transaction.refund',
    'ping',
  ]);
});

it('parses exact types, prefixes and *, and refuses a name that matches nothing', () => {
  const patterns = parseEventTypes(' intent.succeeded , transaction.* ');
  expect(patterns).toEqual(['intent.succeeded', 'transaction.*']);
  expect(matchesEventTypes(patterns, 'intent.succeeded')).toBe(true);
  expect(matchesEventTypes(patterns, 'transaction.refund')).toBe(true);
  expect(matchesEventTypes(patterns, 'intent.failed')).toBe(false);
  expect(parseEventTypes('intent.*,*')).toEqual(['*']);
  expect(matchesEventTypes(['*'], 'ping')).toBe(true);
  expect(() => parseEventTypes('intent.done')).toThrow(
    "--events: 'intent.done' is not an event type or a prefix of one",
  );
  expect(() => parseEventTypes('order.*')).toThrow("'order.*' is not an event type or a prefix of one");
  expect(() => parseEventTypes(' , ')).toThrow('names no event type');
});
