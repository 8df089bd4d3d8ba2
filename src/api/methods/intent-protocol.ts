/**
 * Switchyard's intent protocol, in the reference's `IntentProtocolVersion` spelling. There is one: the
 * contracts of contracts/ (intent hash tag `Switchyard.Intent.v1`), at the same addresses on every chain.
 */
export const INTENT_PROTOCOL = 'v1';
export const SUPPORTED_INTENT_PROTOCOLS: readonly string[] = [INTENT_PROTOCOL];
