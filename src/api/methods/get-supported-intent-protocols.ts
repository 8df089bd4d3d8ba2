/** GetSupportedIntentProtocols: the intent protocols this server runs (one, intent-protocol.ts). */
import type { Handler } from '../context.ts';
import { SUPPORTED_INTENT_PROTOCOLS } from './intent-protocol.ts';

export function createGetSupportedIntentProtocols(): Handler<'GetSupportedIntentProtocols'> {
  const answer = { versions: [...SUPPORTED_INTENT_PROTOCOLS] };
  return () => answer;
}
