/**
 * The operator's signatures, viem's account (its pure-JS curve) against the service's
 * (`src/chains/signing-account.ts`, libsecp256k1 natively), in one process: batches alternate between
 * the two, so a noisy neighbour touches both alike. What is signed is what the engine signs for every
 * intent: EIP-1559 transactions with the calldata sizes of the origin execution, the fill and the
 * destination execution, and one EIP-712 fill attestation (a 32-byte digest). Prints p50/p99 per
 * signature for each and the ratio of the medians.
 *
 *   npx tsx bench/sign.ts [--rounds 20] [--batch 50]
 *
 * See docs/benchmarks.md ("Signing").
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { bytesToHex, type Hex, type LocalAccount, type TransactionSerializableEIP1559 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { signingAccount } from '../src/chains/signing-account.ts';
import { percentiles } from './support/percentiles.ts';

/** Calldata sizes (bytes) of the engine's three transactions per intent, read off bench/e2e's intents. */
const CALLDATA_BYTES = { originExecution: 1_700, fill: 600, destinationExecution: 1_300 } as const;
const WARMUP_ROUNDS = 2;

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '20' }, batch: { type: 'string', default: '50' } },
});
const rounds = Number(args.rounds);
const batch = Number(args.batch);

const key = bytesToHex(randomBytes(32)) as Hex;
const accounts: Record<string, LocalAccount> = {
  'viem (JS curve)': privateKeyToAccount(key),
  'signingAccount (native)': signingAccount(key),
};
const transactions: TransactionSerializableEIP1559[] = Object.values(CALLDATA_BYTES).map((bytes, i) => ({
  type: 'eip1559',
  chainId: 31_337,
  nonce: i,
  to: bytesToHex(randomBytes(20)),
  data: bytesToHex(randomBytes(bytes)),
  gas: 400_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
}));

/** One intent's signatures: three transactions and the attestation digest. */
async function signOneIntent(account: LocalAccount, nonce: number): Promise<void> {
  for (const tx of transactions) await account.signTransaction({ ...tx, nonce: (tx.nonce ?? 0) + nonce });
  await account.sign!({ hash: bytesToHex(randomBytes(32)) });
}

const samples = new Map<string, number[]>(Object.keys(accounts).map((name) => [name, []]));
for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
  const order = round % 2 === 0 ? Object.entries(accounts) : Object.entries(accounts).reverse();
  for (const [name, account] of order) {
    for (let i = 0; i < batch; i++) {
      const started = performance.now();
      await signOneIntent(account, i);
      if (round >= WARMUP_ROUNDS) samples.get(name)!.push(performance.now() - started);
    }
  }
}

console.log(`\nOne intent's signatures (3 transactions + 1 attestation), ${rounds} × ${batch} each:\n`);
console.log('| signer | p50 ms per intent | p99 ms |');
console.log('| --- | --- | --- |');
const medians: number[] = [];
for (const [name, values] of samples) {
  const p = percentiles(values);
  medians.push(p.p50);
  console.log(`| ${name} | ${p.p50.toFixed(3)} | ${p.p99.toFixed(3)} |`);
}
console.log(`\nnative ÷ viem (p50): ${(medians[1]! / medians[0]!).toFixed(2)}`);
