/** GetDefaultIntentProtocol: the protocol quotes use when `options.intentProtocol` is absent (the only one). */
import type { Handler } from '../context.ts';
import { INTENT_PROTOCOL } from './intent-protocol.ts';

export function createGetDefaultIntentProtocol(): Handler<'GetDefaultIntentProtocol'> {
  const answer = { version: INTENT_PROTOCOL };
  return () => answer;
}
