/**
 * The one error base class of Switchyard. Every condition gets its own subclass; boundaries (the
 * chain error mapper, the webrpc error table) convert these into what their callers understand.
 */
export type ErrorDetails = Record<string, unknown>;

export class SwitchyardError extends Error {
  override readonly name: string = 'SwitchyardError';
  /** Labelled context lines (field names, expected and actual values) shown after the message. */
  readonly details: ErrorDetails;

  constructor(message: string, options: { details?: ErrorDetails; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details ?? {};
  }
}

/** Configuration that cannot work; the message says how to fix it. */
export class ConfigError extends SwitchyardError {
  override readonly name = 'ConfigError';
}

/** A TCP port we need is held by another process. */
export class PortInUseError extends SwitchyardError {
  override readonly name = 'PortInUseError';
  constructor(
    readonly host: string,
    readonly port: number,
    what: string,
  ) {
    super(`${what} cannot listen on ${host}:${port}: the port is already in use by another process`, {
      details: { host, port },
    });
  }
}

/**
 * A value the caller gave cannot be used. `field` is its dotted path in the caller's input
 * (`originTokenAmount`, `depositSignature.permitSignature`), or '' when the input as a whole is refused;
 * the message starts with it so a caller learns what to change.
 */
export class InvalidInputError extends SwitchyardError {
  override readonly name: string = 'InvalidInputError';
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(field ? `${field}: ${problem}` : problem, { details: { field } });
  }
}

/** The caller named a chain this server does not serve; `field` is where it was named. */
export class ChainNotSupportedError extends SwitchyardError {
  override readonly name = 'ChainNotSupportedError';
  constructor(
    readonly field: string,
    readonly chainId: number,
  ) {
    super(`${field}: chain ${chainId} is not supported by this server`, { details: { field, chainId } });
  }
}
