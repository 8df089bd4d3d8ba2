/**
 * Switchyard's intent protocol, in the reference's `IntentProtocolVersion` spelling. There is one: the
 * contracts of contracts/ (intent hash tag `Switchyard.Intent.v1`), at the same addresses on every chain.
 * The domain owns the constant (QuoteIntent checks `options.intentProtocol` against it).
 */
import { INTENT_PROTOCOL } from '../../intents/services/check-quote-options.ts';

export { INTENT_PROTOCOL };
export const SUPPORTED_INTENT_PROTOCOLS: readonly string[] = [INTENT_PROTOCOL];
