/**
 * Why the yield service refuses a call. The API maps each class to its webrpc error in one table
 * (src/api/errors/to-wire-error.ts); a malformed argument is an `InvalidInputError` naming the field.
 */
import { SwitchyardError } from '../internal/errors.ts';

/** No configured market has this id. */
export class MarketNotFoundError extends SwitchyardError {
  override readonly name = 'MarketNotFoundError';
  constructor(readonly earnMarketId: string) {
    super(`earnMarketId: no yield market '${earnMarketId}'; list them with YieldGetMarkets`, {
      details: { earnMarketId },
    });
  }
}
