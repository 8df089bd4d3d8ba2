/**
 * The reference's QuoteIntent members that name something this server does not offer: a fiat on-ramp as
 * `fundMethod` (the deposit always comes from a wallet or a plain transfer here) and an intent protocol
 * other than the one it runs (`v1`). Each is refused naming the member; WALLET, DIRECT_TRANSFER and v1 change
 * nothing.
 */
import { InvalidInputError } from '../../internal/errors.ts';
import type { QuoteRequest } from '../intent-document.ts';

/** The one intent protocol version this server runs. */
export const INTENT_PROTOCOL = 'v1';

export function checkQuoteOptions(request: QuoteRequest): void {
  if (request.fundMethod?.startsWith('ONRAMP_')) {
    throw new InvalidInputError(
      'fundMethod',
      `${request.fundMethod} is a fiat on-ramp, which this server does not offer; fund the deposit from a wallet (WALLET) or by a transfer (DIRECT_TRANSFER)`,
    );
  }
  const protocol = request.options?.intentProtocol;
  if (protocol !== undefined && protocol !== INTENT_PROTOCOL) {
    throw new InvalidInputError(
      'options.intentProtocol',
      `this server runs the one intent protocol ${INTENT_PROTOCOL}, not ${protocol}`,
    );
  }
}
