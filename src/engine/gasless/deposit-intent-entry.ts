/**
 * A gasless deposit as the engine keeps it: the wire `DepositIntentEntry` on the deposit receipt row's
 * `meta`, so GetIntentReceipt shows it and an engine restarted mid-intent still has the signatures.
 */
import type { Hex } from 'viem';
import type { Store } from '../../store/types.ts';
import { GaslessDepositMalformedError } from './errors.ts';

export interface DepositIntentEntry {
  intentSignature: Hex;
  /** An EIP-2612 permit or an EIP-3009 ReceiveWithAuthorization signature, both for the origin account. */
  permitSignature?: Hex;
  /** Permit deadline, or the authorization's validBefore (unix seconds). */
  permitDeadline?: number;
  feeAmount: string;
  feeToken: string;
  feeCollector: string;
  userNonce: number;
  /** The signed TrailsIntent deadline (unix seconds): the relay must happen before it. */
  deadline: number;
}

/** The wire DepositSignature after ExecuteIntent verified it (src/intents/services/gasless). */
export interface VerifiedDepositSignature {
  intentSignature: string;
  permitSignature?: string | undefined;
  permitDeadline?: number | undefined;
  selectedGasFeeOption: { tokenAddress: string; amount: bigint; feeCollectorAddress: string };
  userNonce: number;
  deadline: number;
}

const HEX = /^0x[0-9a-fA-F]*$/;

/** Converts what requestExecution was given; anything else is a programming error, not a user's. */
export function toDepositIntentEntry(value: unknown): DepositIntentEntry {
  const s = value as Partial<VerifiedDepositSignature> | null;
  const option = s?.selectedGasFeeOption;
  if (
    !s ||
    typeof s.intentSignature !== 'string' ||
    !HEX.test(s.intentSignature) ||
    !option ||
    typeof option.amount !== 'bigint' ||
    typeof s.deadline !== 'number' ||
    typeof s.userNonce !== 'number'
  ) {
    throw new GaslessDepositMalformedError('depositSignature is not a verified DepositSignature');
  }
  return {
    intentSignature: s.intentSignature as Hex,
    ...(s.permitSignature && { permitSignature: s.permitSignature as Hex }),
    ...(s.permitDeadline !== undefined && { permitDeadline: s.permitDeadline }),
    feeAmount: option.amount.toString(),
    feeToken: option.tokenAddress.toLowerCase(),
    feeCollector: option.feeCollectorAddress.toLowerCase(),
    userNonce: s.userNonce,
    deadline: s.deadline,
  };
}

/** Each member of an entry, with the wire DepositSignature field it comes from, in the wire's order. */
const ENTRY_FIELDS: [keyof DepositIntentEntry, string][] = [
  ['intentSignature', 'depositSignature.intentSignature'],
  ['permitSignature', 'depositSignature.permitSignature'],
  ['permitDeadline', 'depositSignature.permitDeadline'],
  ['feeToken', 'depositSignature.selectedGasFeeOption'],
  ['feeAmount', 'depositSignature.selectedGasFeeOption'],
  ['feeCollector', 'depositSignature.selectedGasFeeOption'],
  ['userNonce', 'depositSignature.userNonce'],
  ['deadline', 'depositSignature.deadline'],
];

/** The wire field of the first member in which two entries differ (hex compared in any case), or undefined. */
export function differingEntryField(a: DepositIntentEntry, b: DepositIntentEntry): string | undefined {
  const same = (x: unknown, y: unknown) =>
    typeof x === 'string' && typeof y === 'string' ? x.toLowerCase() === y.toLowerCase() : x === y;
  return ENTRY_FIELDS.find(([member]) => !same(a[member], b[member]))?.[1];
}

/**
 * The gasless entry recorded for this intent, or undefined for a plain-transfer deposit. A step reads it
 * once per run and hands it to the gasless hooks it calls (the origin step: the authData, the deadline
 * check, the deposit row) rather than each reading the receipt rows again.
 */
export async function readDepositIntentEntry(
  store: Store,
  intentId: string,
): Promise<DepositIntentEntry | undefined> {
  const rows = await store.transactions.list(intentId);
  const meta = rows.find((r) => r.kind === 'deposit')?.meta;
  const entry = meta?.depositIntentEntry as DepositIntentEntry | undefined;
  return entry && typeof entry.intentSignature === 'string' ? entry : undefined;
}
