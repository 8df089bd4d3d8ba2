import { randomBytes } from 'node:crypto';
import { type Address, bytesToHex, getAddress, type Hex, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { encodeDeployIfNeededAndExecute } from './calldata.ts';
import { hashIntent, hashIntentFromCalldata } from './hash-intent.ts';
import { FillKind, type Intent, IntentMode } from './types.ts';

const hex = (bytes: number): Hex => bytesToHex(randomBytes(bytes));
const address = (): Address => hex(20);

function intentWith(calls: Intent['calls'], sweepTokens: Address[]): Intent {
  return {
    mode: IntentMode.Destination,
    chainId: 31_337n,
    owner: address(),
    refundRecipient: address(),
    executor: zeroAddress,
    deadline: 1_900_000_000n,
    salt: hex(32),
    depositToken: address(),
    depositAmount: 2n ** 255n + 7n,
    minGas: 150_000n,
    calls,
    sweepTokens,
  };
}

describe('hashIntentFromCalldata', () => {
  const factory = getAddress('0xabcdef0123456789abcdef0123456789abcdef01');
  const cases: [string, Intent][] = [
    ['no calls, no sweeps', intentWith([], [])],
    [
      'calls with fills, odd-length data and sweeps',
      intentWith(
        [
          { target: address(), value: 0n, data: '0x', fills: [] },
          {
            target: address(),
            value: 5n,
            data: hex(4 + 32 * 3 + 7),
            fills: [
              { kind: FillKind.OwnBalance, token: address(), offset: 36 },
              { kind: FillKind.OwnAddress, token: zeroAddress, offset: 4 },
            ],
          },
        ],
        [address(), address()],
      ),
    ],
  ];

  for (const [name, intent] of cases) {
    it(`equals hashIntent: ${name}`, () => {
      expect(hashIntentFromCalldata(encodeDeployIfNeededAndExecute(intent), factory)).toBe(
        hashIntent(intent, factory),
      );
      // The trailing authData does not enter the hash.
      expect(hashIntentFromCalldata(encodeDeployIfNeededAndExecute(intent, hex(65)), factory)).toBe(
        hashIntent(intent, factory),
      );
    });
  }
});
