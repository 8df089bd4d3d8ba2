/**
 * Why the yield service refuses a call. The API maps each class to its webrpc error in one table
 * (src/api/errors/to-wire-error.ts); a malformed argument is an `InvalidInputError` naming the field.
 */
import { SwitchyardError } from '../internal/errors.ts';

/** No configured market has this id. `field` is where the caller named it (`earnMarketId`, `marketId`). */
export class MarketNotFoundError extends SwitchyardError {
  override readonly name = 'MarketNotFoundError';
  constructor(
    readonly earnMarketId: string,
    readonly field = 'earnMarketId',
  ) {
    super(`${field}: no yield market '${earnMarketId}'; list them with YieldGetMarkets`, {
      details: { field, earnMarketId },
    });
  }
}

/** No configured market has this provider id. */
export class ProviderNotFoundError extends SwitchyardError {
  override readonly name = 'ProviderNotFoundError';
  constructor(readonly providerId: string) {
    super(`providerId: no yield provider '${providerId}'; list them with YieldGetProviders`, {
      details: { field: 'providerId', providerId },
    });
  }
}
