/**
 * The operator's accounts (relayer, solver, attester) as viem LocalAccounts that sign with libsecp256k1
 * (npm `secp256k1`, a prebuilt native addon) instead of viem's pure-JS curve. The engine signs three
 * transactions and one attestation per intent; on these machines a signature took 0.4–0.9 ms in
 * JavaScript and 0.05–0.07 ms natively. Both are RFC 6979 deterministic with low s, so the bytes are the
 * same either way (the test compares them with viem's own account). Where the addon does not load (a
 * platform without a prebuild), the account is viem's `privateKeyToAccount`, which signs identically.
 */
import { createRequire } from 'node:module';
import {
  bytesToHex,
  type Hex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  type LocalAccount,
  type SerializeTransactionFn,
  serializeTransaction,
  type TransactionSerializable,
} from 'viem';
import { privateKeyToAccount, toAccount } from 'viem/accounts';
import { keccak256 } from '../internal/keccak256.ts';

interface NativeSecp256k1 {
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number };
}

/** libsecp256k1 through the addon's prebuild, or undefined where it does not load. */
export function loadNativeSecp256k1(): NativeSecp256k1 | undefined {
  try {
    // `secp256k1/bindings` is the native path alone: the package's main entry would fall back to a
    // slow pure-JS curve without saying so.
    return createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return undefined;
  }
}

/** `native` null: viem's own account (what a platform without the addon gets). */
export function signingAccount(
  privateKey: Hex,
  native: NativeSecp256k1 | null = loadNativeSecp256k1() ?? null,
): LocalAccount {
  const viemAccount = privateKeyToAccount(privateKey);
  if (!native) return viemAccount;
  const secret = hexToBytes(privateKey);
  const sign = ({ hash }: { hash: Hex }): Hex => {
    const { signature, recid } = native.ecdsaSign(hexToBytes(hash), secret);
    // r ‖ s ‖ v with v = 27 + recovery id: the 65-byte form viem's `sign` returns as hex.
    const out = new Uint8Array(65);
    out.set(signature);
    out[64] = 27 + recid;
    return bytesToHex(out);
  };
  const signTransaction = async (
    transaction: TransactionSerializable,
    options?: { serializer?: SerializeTransactionFn<TransactionSerializable> },
  ): Promise<Hex> => {
    // Blob transactions are hashed without their sidecars; the engine never sends one, viem knows how.
    if (transaction.type === 'eip4844') return viemAccount.signTransaction(transaction, options);
    const serializer = options?.serializer ?? serializeTransaction;
    const { signature, recid } = native.ecdsaSign(
      hexToBytes(keccak256(await serializer(transaction))),
      secret,
    );
    return serializer(transaction, {
      r: bytesToHex(signature.subarray(0, 32)),
      s: bytesToHex(signature.subarray(32, 64)),
      yParity: recid,
    });
  };
  const account = toAccount({
    address: viemAccount.address,
    sign: async (args) => sign(args),
    signMessage: async ({ message }) => sign({ hash: hashMessage(message) }),
    signTypedData: async (typedData) => sign({ hash: hashTypedData(typedData) }),
    signTransaction: signTransaction as LocalAccount['signTransaction'],
    // EIP-7702 authorizations are rare and off the engine's path: viem's own.
    signAuthorization: viemAccount.signAuthorization,
  });
  return { ...account, publicKey: viemAccount.publicKey };
}
