/**
 * keccak256 as Ethereum uses it, from hash-wasm (a maintained library of hash functions compiled to WebAssembly).
 * A quote hashes each of its intents twice (the intent hash, the meta-transaction id over the same
 * calldata) plus a CREATE2 address and its checksum, and the engine hashes every signed transaction; on
 * those 0.04-2 KB inputs hash-wasm is 1.4-2.6x faster than the native `keccak` addon and 9-18x faster
 * than viem's `@noble/hashes` (bench/keccak.ts, docs/benchmarks.md). Output equals viem's `keccak256`
 * (src/internal/keccak256.test.ts compares them on every length across several blocks).
 */
import { createKeccak } from 'hash-wasm';
import type { Hex } from 'viem';

/** keccak256's output size in bits (hash-wasm's Keccak takes 224, 256, 384 or 512). */
const KECCAK_256_BITS = 256;

// hash-wasm only instantiates its WebAssembly asynchronously, and callers need the hash synchronously
// (constants computed at import, hashes inside synchronous encoders). One hasher, made once: it is reset
// at the start of every call and each call runs to completion on this thread, so no call sees another's
// state.
const hasher = await createKeccak(KECCAK_256_BITS);

/** keccak256 of bytes, or of the bytes a 0x-prefixed hex string spells; lowercase 0x-prefixed digest. */
export function keccak256(data: Hex | Uint8Array): Hex {
  const bytes = typeof data === 'string' ? hexBytes(data) : data;
  return `0x${hasher.init().update(bytes).digest('hex')}`;
}

function hexBytes(hex: Hex): Uint8Array {
  const digits = hex.length - 2;
  const bytes = Buffer.from(hex.slice(2), 'hex');
  // Buffer stops at the first non-hex pair; viem's keccak256 throws on such input, and so does this.
  if (!hex.startsWith('0x') || digits % 2 !== 0 || bytes.length * 2 !== digits) {
    throw new TypeError(`not a hex string: ${hex.length > 80 ? `${hex.slice(0, 80)}…` : hex}`);
  }
  return bytes;
}
