/** Errors of the price source. */
import { SwitchyardError } from '../internal/errors.ts';

/** A static price entry that cannot be used (bad key or a non-positive price). */
export class InvalidStaticPriceError extends SwitchyardError {
  override readonly name = 'InvalidStaticPriceError';
  constructor(key: string, reason: string, actual: unknown) {
    super(`prices["${key}"]: ${reason}`, {
      details: { key, expected: 'a "<chainId>:<0x address>" key with a positive USD number', actual },
    });
  }
}
