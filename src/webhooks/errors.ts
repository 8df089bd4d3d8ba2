/** The webhooks' conditions, each its own class (converted to CLI messages and delivery-log errors). */
import { SwitchyardError } from '../internal/errors.ts';

/** A URL an endpoint cannot have: not http(s), credentials in it, or not a URL at all. */
export class InvalidWebhookUrlError extends SwitchyardError {
  override readonly name = 'InvalidWebhookUrlError';
  constructor(
    readonly url: string,
    problem: string,
  ) {
    super(`--url: ${problem}`, { details: { url } });
  }
}

/**
 * The target is loopback, private, link-local or otherwise not on the public internet, and the config does
 * not allow such targets (`webhooks.allowPrivateTargets`; the devnet allows them).
 */
export class BlockedWebhookTargetError extends SwitchyardError {
  override readonly name = 'BlockedWebhookTargetError';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `webhook target ${host} is ${address === host ? 'a' : `${address}, a`} loopback or private-range address; ` +
        'such targets are refused unless the config sets webhooks.allowPrivateTargets',
      { details: { host, address } },
    );
  }
}

/** The target's host name does not resolve. */
export class UnresolvableWebhookHostError extends SwitchyardError {
  override readonly name = 'UnresolvableWebhookHostError';
  constructor(
    readonly host: string,
    cause: unknown,
  ) {
    super(`webhook target ${host} does not resolve: ${(cause as Error)?.message ?? String(cause)}`, {
      details: { host },
      cause,
    });
  }
}
