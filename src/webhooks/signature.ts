/**
 * The `Switchyard-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 * endpoint's secret (its UTF-8 bytes, `whsec_` included). The time is signed with the body, so a receiver
 * that checks it against its clock (docs/webhooks.md: five minutes) refuses a captured delivery replayed
 * later; the `v1` name leaves room for another scheme beside it.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'Switchyard-Signature';
const SECRET_PREFIX = 'whsec_';
/** Random bytes in a new secret: 256 bits, the HMAC-SHA256 key size. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
