/**
 * Off-chain checks of an intent before the server commits to it: the same fill rules the account enforces
 * on-chain (IntentAccount._applyFills), so a bad intent is refused at quote time, not at execute time.
 */
import { SwitchyardError } from '../internal/errors.ts';
import { FillKind, type Intent, IntentMode } from './types.ts';

/** Bytes of a function selector: a fill may not overwrite it. */
const SELECTOR_BYTES = 4;
/** A fill writes one ABI word. */
const WORD_BYTES = 32;

/** An intent that the contracts would reject (or that has no meaning). */
export class InvalidIntentError extends SwitchyardError {
  override readonly name = 'InvalidIntentError';
}

export function validateIntent(intent: Intent): void {
  if (intent.mode !== IntentMode.Origin && intent.mode !== IntentMode.Destination) {
    throw new InvalidIntentError('intent mode must be Origin (0) or Destination (1)', {
      details: { mode: intent.mode },
    });
  }
  intent.calls.forEach((call, index) => {
    const dataBytes = (call.data.length - 2) / 2;
    for (const fill of call.fills) {
      if (fill.kind !== FillKind.OwnBalance && fill.kind !== FillKind.OwnAddress) {
        throw new InvalidIntentError('a fill may only write the own balance or the own address', {
          details: { call: index, kind: fill.kind },
        });
      }
      if (
        !Number.isInteger(fill.offset) ||
        fill.offset < SELECTOR_BYTES ||
        fill.offset + WORD_BYTES > dataBytes
      ) {
        throw new InvalidIntentError(
          'a fill must write a whole word inside the call data, after the selector',
          {
            details: { call: index, offset: fill.offset, expectedMax: dataBytes - WORD_BYTES, dataBytes },
          },
        );
      }
    }
  });
}
