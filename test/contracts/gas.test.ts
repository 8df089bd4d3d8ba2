/**
 * Gas snapshot: the gas used by the transactions Switchyard sends (origin execute with fee and lock, fill,
 * destination execute, settle, a settleBatch of two orders, both refunds and two owner-signed recoveries), measured on two fresh anvil chains and compared with the
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
  encodeDeployIfNeededAndRecover,
  encodeDeployIfNeededAndRefund,
  encodeOrderRefund,
  encodeRecover,
  encodeSettle,
  encodeSettleBatch,
} from '../../src/contracts/calldata.ts';
import { recoveryTypedData } from '../../src/contracts/recovery-typed-data.ts';
import type { Intent, Recovery } from '../../src/contracts/types.ts';
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
/** A stray amount sent to an intent address, recovered by the owner's signature. */
const STRAY = 7n * USDC;
/** The fee the sender keeps from the second recovery (the gasless variant). */
const RECOVERY_FEE = USDC / 2n;

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

    // F: USDC sent to A's origin address on the destination chain (the wrong chain), recovered there by a
    // stranger through the factory (clone + recovery). G: a second deposit to A's executed origin account,
    // recovered by the relayer, who keeps a fee (the gasless variant).
    await dest.mint(dest.tokens.usdc, dest.accounts.user.address, STRAY);
    await transferToken(dest, 'user', dest.tokens.usdc, a.originAccount, STRAY);
    const wrongChain = await signedRecovery(dest, a.origin, a.originAccount, 1n, 0n);
    record(
      'recover.wrongChain (deployIfNeededAndRecover: clone, one token, no fee)',
      await dest.send('stranger', {
        to: dest.contracts.intentFactory,
        data: encodeDeployIfNeededAndRecover(a.origin, wrongChain.recovery, 0n, wrongChain.signature),
      }),
    );
    await origin.mint(origin.tokens.usdc, origin.accounts.user.address, STRAY);
    await transferToken(origin, 'user', origin.tokens.usdc, a.originAccount, STRAY);
    const second = await signedRecovery(origin, a.origin, a.originAccount, 2n, RECOVERY_FEE);
    record(
      'recover.afterExecute (recover on the account, fee to the sender)',
      await origin.send('relayer', {
        to: a.originAccount,
        data: encodeRecover(a.origin, second.recovery, RECOVERY_FEE, second.signature),
      }),
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

/** The user's signed recovery of the USDC at `account` to RECIPIENT, with a fixed nonce and deadline. */
async function signedRecovery(
  chain: TestChain,
  intent: Intent,
  account: Address,
  nonce: bigint,
  maxFee: bigint,
): Promise<{ recovery: Recovery; signature: Hex }> {
  const recovery: Recovery = {
    token: chain.tokens.usdc,
    recipient: RECIPIENT,
    cancelIntent: false,
    maxFee,
    nonce,
    deadline: intent.deadline,
  };
  const typed = recoveryTypedData({ chainId: BigInt(chain.chainId), account, recovery });
  return { recovery, signature: await chain.wallets.user.signTypedData(typed) };
}

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
