/**
 * `webhooks replay --since TIME`: an RFC 3339 time, Unix seconds, or a duration back from now (`90s`,
 * `30m`, `6h`, `2d`). Anything else is refused naming the flag and the forms it takes.
 */
import { SwitchyardError } from '../internal/errors.ts';

export class InvalidSinceError extends SwitchyardError {
  override readonly name = 'InvalidSinceError';
  constructor(readonly value: string) {
    super(
      `--since: '${value}' is not a time: give an RFC 3339 time (2026-06-01T12:00:00Z), Unix seconds, ` +
        'or a duration back from now (90s, 30m, 6h, 2d)',
      { details: { value } },
    );
  }
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+)([smhd])$/;
const UNIX_SECONDS = /^\d{9,11}$/;
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

export function parseSince(value: string, now: Date): Date {
  const text = value.trim();
  const duration = DURATION.exec(text);
  if (duration) return new Date(now.getTime() - Number(duration[1]) * UNIT_MS[duration[2]!]!);
  if (UNIX_SECONDS.test(text)) return new Date(Number(text) * 1000);
  if (RFC_3339.test(text)) {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new InvalidSinceError(value);
}
