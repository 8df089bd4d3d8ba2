/**
 * One unit of the floor's work (bench:e2e --workers, e2e-floor.ts): what a worker does around one of its
 * sends, with no Switchyard engine or store, on the same libraries the worker uses. In order, each step
 * waiting for the one before, so every step is a wake-up on I/O as in the engine:
 *
 * 1. two JSON-RPC reads of the origin chain issued together (`eth_getTransactionCount` of the unit's own
 *    key, pending, and `eth_blockNumber`), which the client's batcher may send as one exchange;
 * 2. a row inserted into the scratch table (`insert … returning id`, the journal's record of a send);
 * 3. an EIP-1559 transaction with the origin execution's calldata size signed (viem's serializer, the
 *    service's libsecp256k1 account), and the signed bytes hashed with keccak256, as the journal does;
 * 4. the signed bytes and hash written to the row (`update`);
 * 5. one receipt lookup of that hash on the destination chain (`eth_getTransactionReceipt`, answered null:
 *    the transaction is never sent, so no nonce of the run's keys moves);
 * 6. the row read back (`select`) and marked done (`update`).
 *
 * Four statements, three JSON-RPC calls and one signature: per send, about the mix a worker issues (per
 * intent, ~47 statements, ~25 JSON-RPC calls and ~3.4 sends; docs/benchmarks.md "Scaling with workers").
 */

import type postgres from 'postgres';
import { bytesToHex, type Hex, type LocalAccount, type PublicClient } from 'viem';
import { keccak256 } from '../../src/internal/keccak256.ts';

/** The scratch table the units write (created by e2e-floor.ts in the run's bench database). */
export const FLOOR_TABLE = 'floor_units';
/** Calldata of the signed transaction (bytes): the origin execution's size, the engine's largest (bench/sign.ts). */
const CALLDATA_BYTES = 1_700;
/** Fields of the signed transaction besides nonce and data: what the engine's sends carry on the devnet. */
const GAS = 400_000n;
const MAX_FEE_PER_GAS = 2_000_000_000n;
const MAX_PRIORITY_FEE_PER_GAS = 1_000_000_000n;

export interface FloorUnitDeps {
  sql: postgres.Sql;
  origin: PublicClient;
  destination: PublicClient;
  /** The unit's signer: never funded, never sending. */
  account: LocalAccount;
  chainId: number;
  /** This process's number, written to each row. */
  process: number;
}

/** Runs one unit; `index` is written to its row. */
export type FloorUnit = (index: number) => Promise<void>;

export function createFloorUnit(deps: FloorUnitDeps): FloorUnit {
  const { sql, origin, destination, account } = deps;
  const data = bytesToHex(new Uint8Array(CALLDATA_BYTES).fill(0xab));
  const table = sql(FLOOR_TABLE);
  return async (index) => {
    const [nonceHex, headHex] = await Promise.all([
      origin.request({ method: 'eth_getTransactionCount', params: [account.address, 'pending'] }),
      origin.request({ method: 'eth_blockNumber' }),
    ]);
    const [row] = await sql<{ id: number }[]>`
      insert into ${table} (process, unit, nonce, head) values (${deps.process}, ${index}, ${Number(nonceHex)}, ${Number(headHex)})
      returning id`;
    const signed = await account.signTransaction({
      type: 'eip1559',
      chainId: deps.chainId,
      nonce: Number(nonceHex) + index,
      to: account.address,
      data,
      gas: GAS,
      maxFeePerGas: MAX_FEE_PER_GAS,
      maxPriorityFeePerGas: MAX_PRIORITY_FEE_PER_GAS,
    });
    const hash: Hex = keccak256(signed);
    await sql`update ${table} set hash = ${hash}, signed = ${signed} where id = ${row!.id}`;
    await destination.request({ method: 'eth_getTransactionReceipt', params: [hash] });
    await sql`select id, hash, nonce from ${table} where id = ${row!.id}`;
    await sql`update ${table} set done = true where id = ${row!.id}`;
  };
}
