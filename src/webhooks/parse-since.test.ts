import { expect, it } from 'vitest';
import { parseSince } from './parse-since.ts';

const now = new Date('2026-06-01T12:00:00Z');

it.each([
  ['90s', '2026-06-01T11:58:30.000Z'],
  ['30m', '2026-06-01T11:30:00.000Z'],
  ['6h', '2026-06-01T06:00:00.000Z'],
  ['2d', '2026-05-30T12:00:00.000Z'],
  ['1780000000', '2026-05-28T20:26:40.000Z'],
  ['2026-05-31T08:00:00Z', '2026-05-31T08:00:00.000Z'],
  ['2026-05-31T10:00:00.5+02:00', '2026-05-31T08:00:00.500Z'],
])('--since %s is %s', (value, expected) => {
  expect(parseSince(value, now).toISOString()).toBe(expected);
});

it.each(['yesterday', '10 minutes', '-5m', '2026-05-31', '2026-13-40T99:00:00Z', ''])(
  '--since %j is refused',
  (value) => {
    expect(() => parseSince(value, now)).toThrow(`--since: '${value}' is not a time`);
  },
);
