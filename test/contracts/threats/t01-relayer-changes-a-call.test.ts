/**
 * Threat 1 (contracts-brief §3): the relayer (or a stolen relayer key) changes something in the origin intent
 * — a call's target, data or value, the fee, the order's recipient or output amount, any field at all — and
 * executes it against the user's funded account. The account only runs data that hashes to its committed
 * hash, and the address itself changes with every field, so the change can neither run here nor reach these
 * funds through another account.
 */
import fc from 'fast-check';
import { type Address, getAddress, type Hex, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { intentFactoryAbi } from '../../../src/contracts/abis.generated.ts';
import { encodeDeploy, encodeExecute, encodeOpen } from '../../../src/contracts/calldata.ts';
import { hashIntent } from '../../../src/contracts/hash-intent.ts';
import { FillKind, type Intent, type IntentCall, IntentMode } from '../../../src/contracts/types.ts';
import { expectRevert, type TestChain } from '../../harness/chain.ts';
import { accountAddress, buildRoute, DEPOSIT, FEE, OUTPUT, type Route, transferCall } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import { deposit, expectRevertOnChain, newAddress } from './support/fixture.ts';

/** Each run costs three eth_calls (hash, predict, execute): 150 runs cover every mutation kind many times in a few seconds. */
const FUZZ_RUNS = 150;
const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_UINT32 = 2 ** 32 - 1;

type Mutate = (intent: Intent) => Intent;

/** A new uint256: a small step away from the old value, or any value at all. */
const uintChange = fc.oneof(
  fc.bigInt({ min: 1n, max: 1_000n }).map((d) => (v: bigint) => (v + d <= MAX_UINT256 ? v + d : v - d)),
  fc.bigInt({ min: 0n, max: MAX_UINT256 }).map((x) => (_: bigint) => x),
);
const anyAddress = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => getAddress(toHex(b)));
const anyWord = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => toHex(b));

function withCall(intent: Intent, index: number, change: (c: IntentCall) => IntentCall): Intent {
  const i = index % intent.calls.length;
  return { ...intent, calls: intent.calls.map((c, j) => (j === i ? change(c) : c)) };
}

/** Flips bits of one byte of a call's data (covers every argument: amounts, recipients, order fields). */
function flipByte(data: Hex, byteIndex: number, mask: number): Hex {
  const bytes = Buffer.from(data.slice(2), 'hex');
  const i = byteIndex % bytes.length;
  bytes[i] = bytes[i]! ^ mask;
  return `0x${bytes.toString('hex')}`;
}

/** One change to one field of an intent, labelled for the failure report. */
const mutation: fc.Arbitrary<[string, Mutate]> = fc.oneof(
  fc.constant<[string, Mutate]>([
    'mode',
    (o) => ({ ...o, mode: o.mode === 0 ? IntentMode.Destination : IntentMode.Origin }),
  ]),
  uintChange.map<[string, Mutate]>((f) => ['chainId', (o) => ({ ...o, chainId: f(o.chainId) })]),
  anyAddress.map<[string, Mutate]>((a) => ['owner', (o) => ({ ...o, owner: a })]),
  anyAddress.map<[string, Mutate]>((a) => ['refundRecipient', (o) => ({ ...o, refundRecipient: a })]),
  anyAddress.map<[string, Mutate]>((a) => ['executor', (o) => ({ ...o, executor: a })]),
  uintChange.map<[string, Mutate]>((f) => ['deadline', (o) => ({ ...o, deadline: f(o.deadline) })]),
  anyWord.map<[string, Mutate]>((w) => ['salt', (o) => ({ ...o, salt: w })]),
  anyAddress.map<[string, Mutate]>((a) => ['depositToken', (o) => ({ ...o, depositToken: a })]),
  uintChange.map<[string, Mutate]>((f) => [
    'depositAmount',
    (o) => ({ ...o, depositAmount: f(o.depositAmount) }),
  ]),
  uintChange.map<[string, Mutate]>((f) => ['minGas', (o) => ({ ...o, minGas: f(o.minGas) })]),
  fc
    .tuple(fc.nat(), anyAddress)
    .map<[string, Mutate]>(([i, a]) => [
      `calls[${i}].target`,
      (o) => withCall(o, i, (c) => ({ ...c, target: a })),
    ]),
  fc
    .tuple(fc.nat(), uintChange)
    .map<[string, Mutate]>(([i, f]) => [
      `calls[${i}].value`,
      (o) => withCall(o, i, (c) => ({ ...c, value: f(c.value) })),
    ]),
  fc
    .tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 255 }))
    .map<[string, Mutate]>(([i, at, mask]) => [
      `calls[${i}].data byte ${at}`,
      (o) => withCall(o, i, (c) => ({ ...c, data: flipByte(c.data, at, mask) })),
    ]),
  fc
    .tuple(fc.nat(), fc.integer({ min: 0, max: 255 }))
    .map<[string, Mutate]>(([i, b]) => [
      `calls[${i}].data + byte`,
      (o) => withCall(o, i, (c) => ({ ...c, data: `${c.data}${b.toString(16).padStart(2, '0')}` as Hex })),
    ]),
  fc
    .nat()
    .map<[string, Mutate]>((i) => [
      `calls[${i}].data - last byte`,
      (o) => withCall(o, i, (c) => ({ ...c, data: c.data.slice(0, -2) as Hex })),
    ]),
  fc
    .tuple(fc.nat(), fc.integer({ min: 4, max: MAX_UINT32 }), anyAddress)
    .map<[string, Mutate]>(([i, offset, token]) => [
      `calls[${i}].fills + own-balance fill`,
      (o) =>
        withCall(o, i, (c) => ({ ...c, fills: [...c.fills, { kind: FillKind.OwnBalance, token, offset }] })),
    ]),
  fc
    .nat()
    .map<[string, Mutate]>((i) => [
      `calls[${i}].fills - last`,
      (o) => withCall(o, i, (c) => ({ ...c, fills: c.fills.slice(0, -1) })),
    ]),
  fc.tuple(fc.nat(), fc.nat()).map<[string, Mutate]>(([i, f]) => [
    `calls[${i}].fills[${f}].kind`,
    (o) =>
      withCall(o, i, (c) => ({
        ...c,
        fills: c.fills.map((x, j) =>
          j === f % Math.max(c.fills.length, 1)
            ? { ...x, kind: x.kind === FillKind.OwnBalance ? FillKind.OwnAddress : FillKind.OwnBalance }
            : x,
        ),
      })),
  ]),
  fc.tuple(fc.nat(), fc.nat(), anyAddress).map<[string, Mutate]>(([i, f, token]) => [
    `calls[${i}].fills[${f}].token`,
    (o) =>
      withCall(o, i, (c) => ({
        ...c,
        fills: c.fills.map((x, j) => (j === f % Math.max(c.fills.length, 1) ? { ...x, token } : x)),
      })),
  ]),
  fc
    .tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: MAX_UINT32 }))
    .map<[string, Mutate]>(([i, f, offset]) => [
      `calls[${i}].fills[${f}].offset`,
      (o) =>
        withCall(o, i, (c) => ({
          ...c,
          fills: c.fills.map((x, j) => (j === f % Math.max(c.fills.length, 1) ? { ...x, offset } : x)),
        })),
    ]),
  fc
    .nat()
    .map<[string, Mutate]>((i) => [
      `calls - call ${i}`,
      (o) => ({ ...o, calls: o.calls.filter((_, j) => j !== i % o.calls.length) }),
    ]),
  fc
    .tuple(fc.nat(), anyAddress, fc.bigInt({ min: 0n, max: MAX_UINT256 }))
    .map<[string, Mutate]>(([i, to, amount]) => [
      `calls + transfer at ${i}`,
      (o) => {
        const at = i % (o.calls.length + 1);
        const extra = transferCall(o.depositToken, to, amount);
        return { ...o, calls: [...o.calls.slice(0, at), extra, ...o.calls.slice(at)] };
      },
    ]),
  fc.nat().map<[string, Mutate]>((i) => [
    `calls swap ${i}`,
    (o) => {
      const a = i % o.calls.length;
      const b = (a + 1) % o.calls.length;
      const calls = [...o.calls];
      [calls[a], calls[b]] = [calls[b]!, calls[a]!];
      return { ...o, calls };
    },
  ]),
  anyAddress.map<[string, Mutate]>((a) => [
    'sweepTokens + token',
    (o) => ({ ...o, sweepTokens: [...o.sweepTokens, a] }),
  ]),
);

/** Equality of intents up to address letter case (a checksummed and a lowercase address are the same field). */
function sameIntent(a: Intent, b: Intent): boolean {
  const canon = (x: Intent) =>
    JSON.stringify(x, (_, v) =>
      typeof v === 'bigint' ? `n${v}` : typeof v === 'string' ? v.toLowerCase() : v,
    );
  return canon(a) === canon(b);
}

describe('threat 1: the relayer changes a call of the origin intent', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_001], ([started]) => {
    chain = started;
  });

  /** A funded, deployed origin account: fee transfer, approve and open as the server builds them. */
  async function fundedRoute(): Promise<Route> {
    const route = await buildRoute({
      origin: chain,
      dest: chain,
      depositAmount: DEPOSIT,
      feeAmount: FEE,
      outputAmount: OUTPUT,
      recipient: newAddress(),
    });
    await deposit(chain, chain.tokens.usdc, route.originAccount, DEPOSIT);
    await chain.send('relayer', { to: chain.contracts.intentFactory, data: encodeDeploy(route.origin) });
    return route;
  }

  async function predictOnChain(intent: Intent): Promise<{ hash: Hex; address: Address }> {
    const factory = { address: chain.contracts.intentFactory, abi: intentFactoryAbi } as const;
    const hash = await chain.publicClient.readContract({
      ...factory,
      functionName: 'hashIntent',
      args: [intent],
    });
    const address = await chain.publicClient.readContract({
      ...factory,
      functionName: 'predict',
      args: [hash],
    });
    return { hash, address };
  }

  it('test_execute_revertsHashMismatch_forAnySingleFieldChange_andPredictGivesAnotherAddress (fuzz)', async () => {
    const route = await fundedRoute();
    const { usdc } = chain.tokens;
    await fc.assert(
      fc.asyncProperty(mutation, async ([, mutate]) => {
        const changed = mutate(route.origin);
        fc.pre(!sameIntent(changed, route.origin));
        const onChain = await predictOnChain(changed);
        const offChain = accountAddress(chain, changed);
        expect(onChain).toEqual(offChain);
        expect(onChain.hash).not.toBe(route.originHash);
        expect(onChain.address).not.toBe(route.originAccount);
        const args = await expectRevert(
          chain.publicClient.call({
            account: chain.accounts.relayer,
            to: route.originAccount,
            data: encodeExecute(changed),
          }),
          'HashMismatch',
        );
        expect(args).toEqual([route.originHash, onChain.hash]);
      }),
      { numRuns: FUZZ_RUNS },
    );
    // None of it touched the deposit, and the committed intent still executes as quoted.
    expect(await chain.balanceOf(usdc, route.originAccount)).toBe(DEPOSIT);
    await chain.send('relayer', { to: route.originAccount, data: encodeExecute(route.origin) });
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(FEE);
    expect(await chain.balanceOf(usdc, chain.contracts.originSettler)).toBe(DEPOSIT - FEE);
  });

  const FEE_CALL = 0;
  const OPEN_CALL = 2;
  /** Each attack gets the route, the attacker's address and the committed fee collector. */
  const attacks: [string, (r: Route, attacker: Address, feeCollector: Address) => Intent][] = [
    [
      'raises the fee',
      (r, _, feeCollector) =>
        withCall(r.origin, FEE_CALL, () => transferCall(r.origin.depositToken, feeCollector, DEPOSIT)),
    ],
    [
      'redirects the fee to itself',
      (r, attacker) => withCall(r.origin, FEE_CALL, () => transferCall(r.origin.depositToken, attacker, FEE)),
    ],
    [
      'lowers the order output amount',
      (r) =>
        withCall(r.origin, OPEN_CALL, (c) => ({
          ...c,
          data: encodeOpen({ ...r.orderTemplate, outputAmount: 1n }),
        })),
    ],
    [
      'sends the order to its own recipient',
      (r, attacker) =>
        withCall(r.origin, OPEN_CALL, (c) => ({
          ...c,
          data: encodeOpen({ ...r.orderTemplate, recipient: attacker }),
        })),
    ],
    ['makes itself the refund recipient', (r, attacker) => ({ ...r.origin, refundRecipient: attacker })],
  ];

  it.each(attacks)('test_execute_revertsHashMismatch_whenTheRelayer %s', async (_, attack) => {
    const route = await fundedRoute();
    const attacker = chain.accounts.relayer.address;
    const changed = attack(route, attacker, chain.accounts.feeCollector.address);
    const changedHash = hashIntent(changed, chain.contracts.intentFactory);
    const args = await expectRevertOnChain(
      chain,
      'relayer',
      { to: route.originAccount, data: encodeExecute(changed) },
      'HashMismatch',
    );
    expect(args).toEqual([route.originHash, changedHash]);
    expect((await predictOnChain(changed)).address).not.toBe(route.originAccount);
    const { usdc } = chain.tokens;
    expect(await chain.balanceOf(usdc, route.originAccount)).toBe(DEPOSIT);
    expect(await chain.balanceOf(usdc, attacker)).toBe(0n);
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(0n);
  });
});
