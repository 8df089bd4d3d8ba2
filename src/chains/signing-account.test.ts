import fc from 'fast-check';
import {
  bytesToHex,
  type Hex,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { fillAttestationTypedData } from '../contracts/attestation.ts';
import { loadNativeSecp256k1, signingAccount } from './signing-account.ts';

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => bytesToHex(b));
// A private key must be below the curve order; a leading 0x0f byte keeps it there (and non-zero).
const privateKey = hex(31).map((h) => `0x0f${h.slice(2)}` as Hex);
const address = hex(20);
const transaction = fc.record({
  chainId: fc.integer({ min: 1, max: 2 ** 31 }),
  nonce: fc.nat({ max: 2 ** 32 }),
  to: address,
  data: fc.uint8Array({ maxLength: 600 }).map((b) => bytesToHex(b)),
  value: fc.bigInt({ min: 0n, max: 2n ** 128n }),
  gas: fc.bigInt({ min: 21_000n, max: 30_000_000n }),
  maxFeePerGas: fc.bigInt({ min: 10n ** 12n, max: 10n ** 15n }),
  // Never above the fee cap (viem refuses to serialize that).
  maxPriorityFeePerGas: fc.bigInt({ min: 0n, max: 10n ** 12n }),
});

describe('signingAccount', () => {
  it('loads libsecp256k1 natively on this platform (a silent fall-back to the JS curve would fail here)', () => {
    expect(loadNativeSecp256k1()).toBeDefined();
  });

  it('signs transactions byte for byte as viem does, and they recover to the account', async () => {
    await fc.assert(
      fc.asyncProperty(privateKey, transaction, async (key, tx) => {
        const eip1559: TransactionSerializableEIP1559 = { type: 'eip1559', ...tx };
        const ours = await signingAccount(key).signTransaction(eip1559);
        expect(ours).toBe(await privateKeyToAccount(key).signTransaction(eip1559));
        const recovered = await recoverTransactionAddress({ serializedTransaction: ours as never });
        expect(recovered).toBe(privateKeyToAccount(key).address);
        expect(parseTransaction(ours).nonce).toBe(tx.nonce);
      }),
      { numRuns: 150 },
    );
  });

  it('signs hashes, messages and typed data as viem does', async () => {
    await fc.assert(
      fc.asyncProperty(privateKey, hex(32), fc.string(), async (key, hash, message) => {
        const ours = signingAccount(key);
        const viems = privateKeyToAccount(key);
        expect(ours.address).toBe(viems.address);
        expect(ours.publicKey).toBe(viems.publicKey);
        expect(await ours.sign!({ hash })).toBe(await viems.sign({ hash }));
        expect(await ours.signMessage({ message })).toBe(await viems.signMessage({ message }));
        const typed = fillAttestationTypedData({
          verifier: viems.address,
          originChainId: 31337n,
          destChainId: 31338n,
          destSettler: viems.address,
          orderId: hash,
          filler: viems.address,
          repaymentAddr: viems.address,
        });
        expect(await ours.signTypedData(typed)).toBe(await viems.signTypedData(typed));
        const authorization = { address: viems.address, chainId: 31337, nonce: 7 };
        expect(await ours.signAuthorization!(authorization)).toEqual(
          await viems.signAuthorization(authorization),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('is viem’s own account where the native library is not there', async () => {
    const key = `0x${'0f'.repeat(32)}` as Hex;
    const account = signingAccount(key, null);
    expect(account.source).toBe('privateKey');
    const tx = { type: 'eip1559', chainId: 1, nonce: 0, gas: 21_000n } as const;
    expect(await account.signTransaction(tx)).toBe(await privateKeyToAccount(key).signTransaction(tx));
    expect(serializeTransaction(tx)).toMatch(/^0x02/);
  });
});
