import { getAddress, hashTypedData, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { type FillAttestation, fillAttestationTypedData } from './attestation.ts';
import { createFillAttestationDigest } from './fill-attestation-digest.ts';

function* attestations(count: number): Generator<FillAttestation> {
  let seed = 11;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed >>> 12;
  };
  const bytes = (n: number) => toHex(Uint8Array.from({ length: n }, () => next() & 0xff));
  const address = () => (next() % 2 ? getAddress(bytes(20)) : bytes(20));
  const verifiers = [address(), address()];
  for (let i = 0; i < count; i++) {
    yield {
      verifier: verifiers[i % 2]!,
      originChainId: BigInt(next()) ** BigInt(1 + (next() % 4)),
      destChainId: BigInt(next()),
      destSettler: address(),
      orderId: bytes(32),
      filler: address(),
      repaymentAddr: address(),
    };
  }
}

describe('createFillAttestationDigest', () => {
  it('is the EIP-712 digest viem computes, and the attester key signs it to the same signature', async () => {
    const digest = createFillAttestationDigest();
    const account = privateKeyToAccount(`0x${'5'.repeat(64)}`);
    for (const a of attestations(100)) {
      const typed = fillAttestationTypedData(a);
      expect(digest(a)).toBe(hashTypedData(typed));
      expect(await account.sign({ hash: digest(a) })).toBe(await account.signTypedData(typed));
    }
  });

  it('refuses what would hash to a different message', () => {
    const digest = createFillAttestationDigest();
    const [a] = [...attestations(1)];
    expect(() => digest({ ...a!, orderId: '0x12' })).toThrow(TypeError);
    expect(() => digest({ ...a!, filler: '0x1234' })).toThrow(TypeError);
    expect(() => digest({ ...a!, originChainId: -1n })).toThrow(RangeError);
  });
});
