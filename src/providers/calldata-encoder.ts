/**
 * Calldata of the few functions a quote encodes (IntentFactory.deployIfNeededAndExecute, OriginSettler.open,
 * ERC-20 transfer and approve), from their ABI entries, without viem's per-call work: viem's
 * encodeFunctionData looks the function up, formats its signature and hashes it for the selector, and checks
 * every address's checksum on every call, which made encoding a quote's intents cost about as much as
 * hashing them (docs/benchmarks.md, bench:quote). Here the ABI entry is compiled once into encoders.
 *
 * The output is the same string viem gives (checked in calldata-encoder.test.ts): addresses lower case,
 * `bytes` values as given. What is checked is what makes the bytes wrong if it is not met: unsigned
 * and signed integers in range, 20-byte addresses, whole-byte hex of the right size. Mixed-case addresses are not
 * checked against their EIP-55 checksum (the encoding does not depend on it; our addresses come from the
 * config, validated requests and our own CREATE2 predictions).
 */
import { type Abi, type AbiParameter, getAbiItem, type Hex, toFunctionSelector } from 'viem';

/** Hex characters of one ABI word. */
const WORD_HEX = 64;
const ZERO_WORD = '0'.repeat(WORD_HEX);
const WORD_MODULUS = 1n << 256n;
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
const HEX_PATTERN = /^0x(?:[0-9a-fA-F]{2})*$/;

interface Encoder {
  /** Dynamic types sit behind an offset in the head; static ones inline. */
  readonly dynamic: boolean;
  /** Hex characters a static value takes in the head (one word for a dynamic one's offset). */
  readonly headHex: number;
  /** The value's encoding, without 0x. */
  encode(value: unknown): string;
}

/** Encodes calls to `name` of `abi` (a name with one overload only). */
export function createCalldataEncoder(abi: Abi, name: string): (args: readonly unknown[]) => Hex {
  const item = getAbiItem({ abi, name });
  if (item?.type !== 'function') throw new TypeError(`${name} is not a function of this ABI`);
  if (abi.filter((entry) => entry.type === 'function' && entry.name === name).length !== 1) {
    throw new TypeError(`${name} is overloaded; this encoder takes one signature`);
  }
  const selector = toFunctionSelector(item);
  const encoders = item.inputs.map(compile);
  return (args) => {
    if (args.length !== encoders.length) {
      throw new TypeError(`${name} takes ${encoders.length} arguments, got ${args.length}`);
    }
    return `${selector}${encodeSequence(encoders, args)}` as Hex;
  };
}

function compile(param: AbiParameter): Encoder {
  const { type } = param;
  const array = /^(.*)\[\]$/.exec(type);
  if (array) {
    const element = compile({ ...param, type: array[1]! } as AbiParameter);
    return {
      dynamic: true,
      headHex: WORD_HEX,
      encode: (value) => {
        const list = value as readonly unknown[];
        return word(BigInt(list.length)) + encodeSequence(new Array(list.length).fill(element), list);
      },
    };
  }
  if (type === 'tuple') {
    const components = (param as { components: readonly AbiParameter[] }).components;
    const names = components.map((c, i) => c.name ?? String(i));
    const encoders = components.map(compile);
    const dynamic = encoders.some((e) => e.dynamic);
    return {
      dynamic,
      headHex: dynamic ? WORD_HEX : encoders.reduce((sum, e) => sum + e.headHex, 0),
      encode: (value) => {
        const values = Array.isArray(value) ? value : names.map((n) => (value as Record<string, unknown>)[n]);
        return encodeSequence(encoders, values);
      },
    };
  }
  const uint = /^uint(\d*)$/.exec(type);
  if (uint) {
    const max = 2n ** BigInt(uint[1] || 256);
    return staticWord((value) => {
      const n = typeof value === 'bigint' ? value : BigInt(value as number);
      if (n < 0n || n >= max) {
        // As viem's IntegerOutOfRangeError before: not a reason of the plan, so it passes through.
        throw new RangeError(`${param.name ?? type} ${n} does not fit ${type}`);
      }
      return word(n);
    });
  }
  const int = /^int(\d*)$/.exec(type);
  if (int) {
    const half = 2n ** (BigInt(int[1] || 256) - 1n);
    return staticWord((value) => {
      const n = typeof value === 'bigint' ? value : BigInt(value as number);
      if (n < -half || n >= half) throw new RangeError(`${param.name ?? type} ${n} does not fit ${type}`);
      // Two's complement over the whole word.
      return word(n < 0n ? WORD_MODULUS + n : n);
    });
  }
  if (type === 'address') {
    return staticWord((value) => {
      if (typeof value !== 'string' || !ADDRESS_PATTERN.test(value)) {
        throw new TypeError(`${param.name ?? type} is not an address: ${String(value)}`);
      }
      return `000000000000000000000000${value.slice(2).toLowerCase()}`;
    });
  }
  if (type === 'bool') return staticWord((value) => word(value ? 1n : 0n));
  const fixedBytes = /^bytes(\d+)$/.exec(type);
  if (fixedBytes) {
    const hexLength = 2 + 2 * Number(fixedBytes[1]);
    return staticWord((value) => {
      if (typeof value !== 'string' || value.length !== hexLength || !HEX_PATTERN.test(value)) {
        throw new TypeError(`${param.name ?? type} is not a ${type}: ${String(value)}`);
      }
      return value.slice(2).padEnd(WORD_HEX, '0');
    });
  }
  if (type === 'bytes') {
    return {
      dynamic: true,
      headHex: WORD_HEX,
      encode: (value) => {
        if (typeof value !== 'string' || !HEX_PATTERN.test(value)) {
          throw new TypeError(`${param.name ?? type} is not hex bytes`);
        }
        const data = value.slice(2);
        const padded = Math.ceil(data.length / WORD_HEX) * WORD_HEX;
        return word(BigInt(data.length / 2)) + data.padEnd(padded, '0');
      },
    };
  }
  throw new TypeError(`ABI type ${type} is not supported by this encoder`);
}

function staticWord(encode: (value: unknown) => string): Encoder {
  return { dynamic: false, headHex: WORD_HEX, encode };
}

function word(n: bigint): string {
  const hex = n.toString(16);
  return hex.length === WORD_HEX ? hex : ZERO_WORD.slice(hex.length) + hex;
}

/** Heads (static values inline, offsets for dynamic ones, in bytes from the sequence start) then tails. */
function encodeSequence(encoders: readonly Encoder[], values: readonly unknown[]): string {
  let headHex = 0;
  for (const e of encoders) headHex += e.headHex;
  let head = '';
  let tail = '';
  for (let i = 0; i < encoders.length; i++) {
    const e = encoders[i]!;
    if (e.dynamic) {
      head += word(BigInt((headHex + tail.length) / 2));
      tail += e.encode(values[i]);
    } else {
      head += e.encode(values[i]);
    }
  }
  return head + tail;
}
