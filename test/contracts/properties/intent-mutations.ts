/**
 * Arbitrary intents (every field, any value the ABI allows) and every single-field mutation of one: each
 * scalar changed by one bit, each list grown or shrunk by one element, each calldata changed by one byte.
 */
import fc from 'fast-check';
import type { Address, Hex } from 'viem';
import type { Fill, Intent, IntentCall } from '../../../src/contracts/types.ts';

const UINT256_MAX = 2n ** 256n - 1n;
const UINT32_MAX = 2 ** 32 - 1;
/** FillKind has three values on-chain (None, OwnBalance, OwnAddress); Mode has two. */
const FILL_KINDS = 3;
const MODES = 2;
/** Small lists keep each run fast while still covering empty, one and several elements. */
const MAX_CALLS = 3;
const MAX_FILLS = 2;
const MAX_SWEEP_TOKENS = 3;
const MAX_CALLDATA_BYTES = 100;

const hexOf = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;
const addressArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => hexOf(b) as Address);
const bytes32Arb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hexOf);
const uint256Arb = fc.bigInt({ min: 0n, max: UINT256_MAX });

const fillArb: fc.Arbitrary<Fill> = fc.record({
  kind: fc.integer({ min: 0, max: FILL_KINDS - 1 }) as fc.Arbitrary<Fill['kind']>,
  token: addressArb,
  offset: fc.integer({ min: 0, max: UINT32_MAX }),
});
const callArb: fc.Arbitrary<IntentCall> = fc.record({
  target: addressArb,
  value: uint256Arb,
  data: fc.uint8Array({ maxLength: MAX_CALLDATA_BYTES }).map(hexOf),
  fills: fc.array(fillArb, { maxLength: MAX_FILLS }),
});

export const intentArb: fc.Arbitrary<Intent> = fc.record({
  mode: fc.integer({ min: 0, max: MODES - 1 }) as fc.Arbitrary<Intent['mode']>,
  chainId: uint256Arb,
  owner: addressArb,
  refundRecipient: addressArb,
  executor: addressArb,
  deadline: uint256Arb,
  salt: bytes32Arb,
  depositToken: addressArb,
  depositAmount: uint256Arb,
  minGas: uint256Arb,
  calls: fc.array(callArb, { maxLength: MAX_CALLS }),
  sweepTokens: fc.array(addressArb, { maxLength: MAX_SWEEP_TOKENS }),
});

export interface Mutation {
  /** Which field changed, e.g. `calls[1].fills[0].offset` or `sweepTokens+`. */
  path: string;
  intent: Intent;
}

const flipBigint = (x: bigint) => x ^ 1n;
const flipHex = (x: Hex): Hex => {
  // Empty bytes become one byte 0x01 (not 0x00, which `data+` produces).
  if (x.length === 2) return '0x01';
  const last = Number.parseInt(x.slice(-2), 16) ^ 1;
  return `${x.slice(0, -2)}${last.toString(16).padStart(2, '0')}` as Hex;
};
const flipAddress = (x: Address) => flipHex(x) as Address;
const other = <T extends number>(x: T, n: number) => ((x + 1) % n) as T;

/** Every single-field change of `intent` (each yields an intent that differs in exactly that field). */
export function allMutations(intent: Intent): Mutation[] {
  const out: Mutation[] = [];
  const top = (path: keyof Intent, value: unknown) =>
    out.push({ path, intent: { ...intent, [path]: value } });
  top('mode', other(intent.mode, MODES));
  top('chainId', flipBigint(intent.chainId));
  top('owner', flipAddress(intent.owner));
  top('refundRecipient', flipAddress(intent.refundRecipient));
  top('executor', flipAddress(intent.executor));
  top('deadline', flipBigint(intent.deadline));
  top('salt', flipHex(intent.salt));
  top('depositToken', flipAddress(intent.depositToken));
  top('depositAmount', flipBigint(intent.depositAmount));
  top('minGas', flipBigint(intent.minGas));
  top('calls', [...intent.calls, { target: intent.owner, value: 0n, data: '0x', fills: [] }]);
  if (intent.calls.length > 0)
    out.push({ path: 'calls-', intent: { ...intent, calls: intent.calls.slice(1) } });
  top('sweepTokens', [...intent.sweepTokens, intent.owner]);
  if (intent.sweepTokens.length > 0) {
    out.push({ path: 'sweepTokens-', intent: { ...intent, sweepTokens: intent.sweepTokens.slice(1) } });
  }
  intent.sweepTokens.forEach((token, i) => {
    out.push({
      path: `sweepTokens[${i}]`,
      intent: { ...intent, sweepTokens: replaceAt(intent.sweepTokens, i, flipAddress(token)) },
    });
  });
  intent.calls.forEach((call, i) => {
    for (const m of callMutations(call)) {
      out.push({
        path: `calls[${i}].${m.path}`,
        intent: { ...intent, calls: replaceAt(intent.calls, i, m.call) },
      });
    }
  });
  return out;
}

function callMutations(call: IntentCall): { path: string; call: IntentCall }[] {
  const out = [
    { path: 'target', call: { ...call, target: flipAddress(call.target) } },
    { path: 'value', call: { ...call, value: flipBigint(call.value) } },
    { path: 'data', call: { ...call, data: flipHex(call.data) } },
    { path: 'data+', call: { ...call, data: `${call.data}00` as Hex } },
    {
      path: 'fills+',
      call: { ...call, fills: [...call.fills, { kind: 1, token: call.target, offset: 4 }] as Fill[] },
    },
  ];
  if (call.fills.length > 0) out.push({ path: 'fills-', call: { ...call, fills: call.fills.slice(1) } });
  call.fills.forEach((fill, j) => {
    const fills = (f: Fill) => replaceAt(call.fills, j, f);
    out.push({
      path: `fills[${j}].kind`,
      call: { ...call, fills: fills({ ...fill, kind: other(fill.kind, FILL_KINDS) }) },
    });
    out.push({
      path: `fills[${j}].token`,
      call: { ...call, fills: fills({ ...fill, token: flipAddress(fill.token) }) },
    });
    out.push({
      path: `fills[${j}].offset`,
      call: { ...call, fills: fills({ ...fill, offset: (fill.offset ^ 1) >>> 0 }) },
    });
  });
  return out;
}

function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  return list.map((x, i) => (i === index ? value : x));
}
