/**
 * Shared pieces of the threat tests: the user's intents (`userIntent` for all of t01–t23, payments and
 * same-chain routes for t01–t12), deposits, factory transactions, account state, and reverts asserted both
 * in a simulation (to decode the custom error) and in a mined transaction (so balance checks afterwards see
 * a real on-chain revert). The settlement steps of t13–t23 are in `../t13-t23-support.ts`.
 */
import {
  type Abi,
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { expect } from 'vitest';
import * as abis from '../../../../src/contracts/abis.generated.ts';
import {
  encodeDeployIfNeededAndExecute,
  encodeDeployIfNeededAndRefund,
} from '../../../../src/contracts/calldata.ts';
import { type Intent, type IntentCall, IntentMode } from '../../../../src/contracts/types.ts';
import { expectRevert, POLLING_INTERVAL_MS, type Role, type TestChain } from '../../../harness/chain.ts';
import { accountAddress, buildRoute, type Route, transferCall } from '../../route.ts';

export const ZERO: Address = '0x0000000000000000000000000000000000000000';
/** Execute window of test intents: long enough that no test reaches it without warping. */
export const WINDOW_SECONDS = 3_600n;
/** Gas for transactions expected to revert: sent with a fixed limit so they are mined instead of estimated. */
const REVERTING_TX_GAS = 3_000_000n;

/** One USDC in base units (defined in route.ts with the standard quote). */
export { USDC } from '../../route.ts';

export const newAddress = (): Address => privateKeyToAddress(generatePrivateKey());
export const randomSalt = (): Hex => keccak256(toHex(`threat-${generatePrivateKey()}`));

export interface PaymentIntentParams {
  /** Who is paid by the committed transfer. */
  recipient: Address;
  amount: bigint;
  /** Defaults to the chain's DevUSDC; the zero address makes a native intent (a plain value transfer). */
  token?: Address;
  /** Defaults to the relayer (Switchyard pins the origin executor). */
  executor?: Address;
  deadline: bigint;
  mode?: IntentMode;
  calls?: IntentCall[];
  sweepTokens?: Address[];
  minGas?: bigint;
}

/**
 * An intent owned by (and refunded to) the `user` role, run by the relayer (Switchyard pins the origin
 * executor) in origin mode, with a fresh salt, no gas floor and no sweep tokens unless `p` says otherwise.
 */
export function userIntent(
  chain: TestChain,
  p: Partial<Intent> & Pick<Intent, 'calls' | 'deadline' | 'depositToken' | 'depositAmount'>,
): Intent {
  const user = chain.accounts.user.address;
  // Fields in the struct's order, so a printed or serialised intent reads as the others; `rest` overrides in place.
  const { deadline, depositToken, depositAmount, calls, ...rest } = p;
  return {
    mode: IntentMode.Origin,
    chainId: BigInt(chain.chainId),
    owner: user,
    refundRecipient: user,
    executor: chain.accounts.relayer.address,
    deadline,
    salt: randomSalt(),
    depositToken,
    depositAmount,
    minGas: 0n,
    calls,
    sweepTokens: [],
    ...rest,
  };
}

/** An intent owned by the `user` role that pays `amount` of one token to `recipient`. */
export function paymentIntent(chain: TestChain, p: PaymentIntentParams): Intent {
  const token = p.token ?? chain.tokens.usdc;
  const pay: IntentCall =
    token === ZERO
      ? { target: p.recipient, value: p.amount, data: '0x', fills: [] }
      : transferCall(token, p.recipient, p.amount);
  return userIntent(chain, {
    mode: p.mode ?? IntentMode.Origin,
    executor: p.executor ?? chain.accounts.relayer.address,
    deadline: p.deadline,
    depositToken: token,
    depositAmount: p.amount,
    minGas: p.minGas ?? 0n,
    calls: p.calls ?? [pay],
    sweepTokens: p.sweepTokens ?? [],
  });
}

/** A payment intent due `WINDOW_SECONDS` from now, with its hash and the address of its (undeployed) account. */
export async function duePayment(
  chain: TestChain,
  p: Omit<PaymentIntentParams, 'deadline'>,
): Promise<{ intent: Intent; account: Address; hash: Hex }> {
  const intent = paymentIntent(chain, { ...p, deadline: (await chain.now()) + WINDOW_SECONDS });
  const { address: account, hash } = accountAddress(chain, intent);
  return { intent, account, hash };
}

/** A same-chain route (origin and destination on `chain`) paying a fresh address `outputAmount` of DevUSDC. */
export function sameChainRoute(
  chain: TestChain,
  amounts: { depositAmount: bigint; feeAmount: bigint; outputAmount: bigint },
): Promise<Route> {
  return buildRoute({ origin: chain, dest: chain, ...amounts, recipient: newAddress() });
}

/** `deployIfNeededAndExecute(intent)` on the chain's factory, as a transaction to send or expect to revert. */
export function executeViaFactory(chain: TestChain, intent: Intent): { to: Address; data: Hex } {
  return { to: chain.contracts.intentFactory, data: encodeDeployIfNeededAndExecute(intent) };
}

/** `deployIfNeededAndRefund(intent, tokens, native)` on the chain's factory, as a transaction. */
export function refundViaFactory(
  chain: TestChain,
  intent: Intent,
  tokens: Address[],
  native: boolean,
): { to: Address; data: Hex } {
  return { to: chain.contracts.intentFactory, data: encodeDeployIfNeededAndRefund(intent, tokens, native) };
}

/** Mints `amount` of a dev token to the user, who then transfers it to `to` (a plain deposit). */
export async function deposit(chain: TestChain, token: Address, to: Address, amount: bigint): Promise<void> {
  await chain.mint(token, chain.accounts.user.address, amount);
  await chain.send('user', {
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
  });
}

/** The intent account's `state()` (an `AccountState`). */
export async function accountStateOf(chain: TestChain, account: Address): Promise<number> {
  return chain.publicClient.readContract({
    address: account,
    abi: abis.intentAccountAbi,
    functionName: 'state',
  });
}

/** Every error of every Switchyard contract (with the OZ errors they inherit). */
const ALL_ERRORS: Abi = Object.values(abis)
  .flatMap((abi) => abi as Abi)
  .filter((item) => item.type === 'error');

/** Decodes revert data carried inside another error (e.g. `CallFailed(index, reason)`). */
export function decodeReason(reason: Hex): { errorName: string; args: readonly unknown[] } {
  const decoded = decodeErrorResult({ abi: ALL_ERRORS, data: reason });
  return { errorName: decoded.errorName, args: decoded.args ?? [] };
}

/**
 * Expects `from`'s transaction to revert with the custom error `errorName`: decodes it from a simulation, then
 * mines the same transaction and checks its receipt says reverted. Returns the error's args.
 */
export async function expectRevertOnChain(
  chain: TestChain,
  from: Role,
  tx: { to: Address; data: Hex; value?: bigint },
  errorName: string,
): Promise<readonly unknown[]> {
  const args = await expectRevert(
    chain.publicClient.call({ account: chain.accounts[from], ...tx }),
    errorName,
  );
  const hash = await chain.wallets[from].sendTransaction({ ...tx, gas: REVERTING_TX_GAS });
  const receipt = await chain.publicClient.waitForTransactionReceipt({
    hash,
    pollingInterval: POLLING_INTERVAL_MS,
  });
  expect(receipt.status).toBe('reverted');
  return args;
}

/** Expects the relayer's `deployIfNeededAndExecute(intent)` to revert with `errorName` (see `expectRevertOnChain`). */
export function expectExecuteReverts(
  chain: TestChain,
  intent: Intent,
  errorName: string,
): Promise<readonly unknown[]> {
  return expectRevertOnChain(chain, 'relayer', executeViaFactory(chain, intent), errorName);
}

/** Expects a simulated call to revert with no decodable custom error (e.g. an ABI-decoding failure). */
export async function expectRawRevert(
  chain: TestChain,
  from: Role,
  tx: { to: Address; data: Hex },
): Promise<void> {
  await expect(chain.publicClient.call({ account: chain.accounts[from], ...tx })).rejects.toThrow(/revert/i);
}
