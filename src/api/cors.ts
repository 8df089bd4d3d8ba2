/**
 * CORS for browsers. Every response carries Access-Control-Allow-Origin; pre-flights allow POST with
 * the headers the official client sends (content-type, webrpc, x-access-key, authorization), and the
 * Last-Event-ID an EventSource sends when it reconnects to GET /events.
 */
export interface CorsOptions {
  /** `'*'` (default) or the exact origins allowed, e.g. `['https://app.example']`. */
  allowedOrigins: '*' | readonly string[];
}

/** Browsers may cache a pre-flight this long (seconds), saving one round trip per call. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export const ALLOWED_HEADERS = 'content-type, webrpc, x-access-key, authorization, last-event-id';

export function corsHeadersFor(options: CorsOptions, origin: string | undefined): Record<string, string> {
  if (options.allowedOrigins === '*') return { 'access-control-allow-origin': '*' };
  if (origin && options.allowedOrigins.includes(origin)) {
    return { 'access-control-allow-origin': origin, vary: 'Origin' };
  }
  return { vary: 'Origin' };
}

export function preflightHeaders(): Record<string, string> {
  return {
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
}
