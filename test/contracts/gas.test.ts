/**
 * Gas snapshot: the gas used by the transactions Switchyard sends (origin execute with fee and lock, fill,
 * destination execute, settle, a settleBatch of two orders, and both refunds), measured on two fresh anvil chains and compared with the
 * committed `gas-snapshot.json`. After an intended contract change, refresh it with
 *   UPDATE_GAS_SNAPSHOT=1 npx vitest run test/contracts/gas.test.ts
 * and commit the file with the change.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Address, Hex, TransactionReceipt } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  encodeDeployIfNeededAndExecute,
  encodeDeployIfNeededAndRefund,
  encodeOrderRefund,
  encodeSettle,
  encodeSettleBatch,
} from '../../src/contracts/calldata.ts';
import { TEST_GRACE_SECONDS, type TestChain } from '../harness/chain.ts';
import { buildRoute, DEPOSIT, FEE, INTENT_WINDOW_SECONDS, OUTPUT, type Route } from './route.ts';
import {
  attestFill,
  depositAndOpen,
  fillOrder,
  fundSolver,
  transferToken,
  USDC,
} from './threats/t13-t23-support.ts';
import { useTestChains } from './use-test-chains.ts';

const SNAPSHOT_FILE = fileURLToPath(new URL('./gas-snapshot.json', import.meta.url));
/**
 * Allowed drift in gas units: 0. anvil's gas accounting is deterministic for the same bytecode, state and
 * calldata, and this test fixes all three (fresh chains, fixed chain ids, a fixed clock, fixed salts and
 * recipients, RFC 6979 signatures); two runs give identical numbers, so any drift is a real change.
 */
const GAS_TOLERANCE = 0n;
/** Both chains' clocks are set here first, so deadlines (and so calldata bytes) are the same every run. */
const START_TIMESTAMP = 3_000_000_000n;
const SOLVER_INVENTORY = 1_000n * USDC;
/** Fixed recipients and salts: fresh random ones would change calldata bytes and storage slots. */
const RECIPIENT: Address = '0x00000000000000000000000000000000000a11ce';
const saltOf = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

type GasSnapshot = Record<string, number>;

describe('gas snapshot', () => {
  let origin: TestChain;
  let dest: TestChain;
  useTestChains([7_771_401, 7_771_402], async (started) => {
    [origin, dest] = started;
    for (const chain of [origin, dest]) {
      await chain.testClient.setNextBlockTimestamp({ timestamp: START_TIMESTAMP });
      await chain.testClient.mine({ blocks: 1 });
    }
    await fundSolver(dest, dest.tokens.usdc, SOLVER_INVENTORY);
  });

  async function route(salt: number): Promise<Route> {
    return buildRoute({
      origin,
      dest,
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
      recipient: RECIPIENT,
      deadline: START_TIMESTAMP + INTENT_WINDOW_SECONDS,
      salt: saltOf(salt),
    });
  }

  /** Runs one fixed sequence of transactions and returns the gas each measured one used. */
  async function measure(): Promise<GasSnapshot> {
    const gas: GasSnapshot = {};
    const record = (name: string, receipt: TransactionReceipt) => {
      gas[name] = Number(receipt.gasUsed);
    };
    const { solver } = origin.accounts;

    // A: the whole happy path.
    const a = await route(1);
    const opened = await depositAndOpen(origin, a, DEPOSIT - FEE);
    record('execute.origin (deployIfNeededAndExecute: clone, fee, approve, open)', opened.receipt);
    record('fill', await fillOrder(origin, dest, opened.order, solver.address));
    record(
      'execute.destination (deployIfNeededAndExecute: clone, transfer)',
      await dest.send('relayer', {
        to: dest.contracts.intentFactory,
        data: encodeDeployIfNeededAndExecute(a.dest),
      }),
    );
    const proof = await attestFill(origin, dest, {
      orderId: opened.orderId,
      filler: solver.address,
      repaymentAddr: solver.address,
    });
    record(
      'settle',
      await origin.send('relayer', {
        to: origin.contracts.originSettler,
        data: encodeSettle(opened.order, solver.address, proof),
      }),
    );

    // D and E: two more orders settled in one settleBatch (per order: the batch's gas over two).
    const batch = [];
    for (const salt of [4, 5]) {
      const opened = await depositAndOpen(origin, await route(salt), DEPOSIT - FEE);
      await fillOrder(origin, dest, opened.order, solver.address);
      const proof = await attestFill(origin, dest, {
        orderId: opened.orderId,
        filler: solver.address,
        repaymentAddr: solver.address,
      });
      batch.push({ orderData: opened.order, repaymentAddr: solver.address, proof });
    }
    record(
      'settleBatch (2 orders)',
      await origin.send('relayer', { to: origin.contracts.originSettler, data: encodeSettleBatch(batch) }),
    );

    // B: deposited but never executed; C: locked but never filled. Both refunded after their deadlines.
    const b = await route(2);
    await origin.mint(origin.tokens.usdc, origin.accounts.user.address, DEPOSIT);
    await transferToken(origin, 'user', origin.tokens.usdc, b.originAccount, DEPOSIT);
    const c = await depositAndOpen(origin, await route(3), DEPOSIT - FEE);
    await origin.increaseTime(INTENT_WINDOW_SECONDS + TEST_GRACE_SECONDS + 1n);
    record(
      'refund.originAccount (deployIfNeededAndRefund after the deadline)',
      await origin.send('stranger', {
        to: origin.contracts.intentFactory,
        data: encodeDeployIfNeededAndRefund(b.origin, [origin.tokens.usdc], false),
      }),
    );
    record(
      'refund.originSettler (after fillDeadline + grace)',
      await origin.send('stranger', { to: origin.contracts.originSettler, data: encodeOrderRefund(c.order) }),
    );
    return gas;
  }

  it('execute, fill, settle and refund use the committed gas (exact)', async () => {
    const measured = await measure();
    if (process.env.UPDATE_GAS_SNAPSHOT === '1') {
      await writeFile(SNAPSHOT_FILE, `${JSON.stringify(measured, null, 2)}\n`);
      return;
    }
    const committed = await readSnapshot();
    expect(Object.keys(measured).sort()).toEqual(Object.keys(committed).sort());
    const drifts = Object.entries(measured)
      .filter(([name, used]) => absDiff(BigInt(used), BigInt(committed[name] ?? 0)) > GAS_TOLERANCE)
      .map(([name, used]) => `${name}: committed ${committed[name]}, measured ${used}`);
    expect(
      drifts,
      'gas drifted; if intended, run UPDATE_GAS_SNAPSHOT=1 npx vitest run test/contracts/gas.test.ts',
    ).toEqual([]);
  });
});

async function readSnapshot(): Promise<GasSnapshot> {
  try {
    return JSON.parse(await readFile(SNAPSHOT_FILE, 'utf8')) as GasSnapshot;
  } catch (error) {
    throw new Error(
      `cannot read ${SNAPSHOT_FILE} (${String(error)}); create it with UPDATE_GAS_SNAPSHOT=1 npx vitest run test/contracts/gas.test.ts`,
    );
  }
}

function absDiff(a: bigint, b: bigint): bigint {
  return a > b ? a - b : b - a;
}
