/**
 * keccak256 implementations side by side on the inputs the service hashes: a 0x-prefixed hex string in,
 * a 0x-prefixed hex digest out, as every caller in src/ uses it. Input sizes (bytes) are the quote path's
 * (an address's checksum, a CREATE2 preimage, an intent hash preimage, a deploy-and-execute calldata)
 * and a signed transaction's. Batches alternate between the candidates, so a noisy neighbour touches all
 * alike; prints the median µs per hash for each size.
 *
 *   npm run bench:keccak -- [--rounds 30] [--batch 2000]
 *
 * The service's keccak256 (hash-wasm) and viem's (`@noble/hashes`) always run; the native `keccak` addon
 * joins when installed (`npm install --no-save keccak`). See docs/benchmarks.md ("keccak256 and the libraries behind it").
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { bytesToHex, type Hex, keccak256 as viemKeccak256 } from 'viem';
import { keccak256 } from '../src/internal/keccak256.ts';
import { percentiles } from './support/percentiles.ts';

/** Preimage sizes (bytes): checksum, CREATE2, intent hash, deploy-and-execute calldata, signed transaction. */
const INPUT_BYTES = [40, 85, 420, 1_100, 1_800] as const;
const WARMUP_ROUNDS = 3;

type Hash = (data: Hex) => Hex;

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '30' }, batch: { type: 'string', default: '2000' } },
});
const rounds = Number(args.rounds);
const batch = Number(args.batch);

/** A package that may be missing (not one of the service's dependencies). */
async function optional<T>(name: string): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch {
    return undefined;
  }
}

async function candidates(): Promise<Record<string, Hash>> {
  const found: Record<string, Hash> = {
    'src/internal/keccak256 (hash-wasm)': keccak256,
    'viem keccak256 (@noble/hashes)': (data) => viemKeccak256(data),
  };
  const native = await optional<{ default: (algorithm: string) => import('node:crypto').Hash }>('keccak');
  if (native) {
    const create = native.default;
    found['keccak (native)'] = (data) =>
      `0x${create('keccak256')
        .update(Buffer.from(data.slice(2), 'hex'))
        .digest('hex')}`;
  }
  return found;
}

const hashes = await candidates();
const inputs = INPUT_BYTES.map((bytes) => bytesToHex(randomBytes(bytes)));
for (const [name, hash] of Object.entries(hashes)) {
  for (const input of inputs) {
    if (hash(input) !== viemKeccak256(input)) throw new Error(`${name} disagrees with viem on ${input}`);
  }
}

const samples = new Map<string, number[][]>(
  Object.keys(hashes).map((name) => [name, INPUT_BYTES.map(() => [] as number[])]),
);
for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
  const entries = Object.entries(hashes);
  const order = round % 2 === 0 ? entries : entries.reverse();
  for (const [name, hash] of order) {
    inputs.forEach((input, size) => {
      const started = performance.now();
      for (let i = 0; i < batch; i++) hash(input);
      const perHashUs = ((performance.now() - started) * 1_000) / batch;
      if (round >= WARMUP_ROUNDS) samples.get(name)![size]!.push(perHashUs);
    });
  }
}

console.log(`\nkeccak256 of a hex string, µs per hash (median of ${rounds} batches of ${batch}):\n`);
console.log(`| implementation | ${INPUT_BYTES.map((b) => `${b} B`).join(' | ')} |`);
console.log(`| --- | ${INPUT_BYTES.map(() => '---').join(' | ')} |`);
for (const [name, perSize] of samples) {
  console.log(`| ${name} | ${perSize.map((values) => percentiles(values).p50.toFixed(2)).join(' | ')} |`);
}
