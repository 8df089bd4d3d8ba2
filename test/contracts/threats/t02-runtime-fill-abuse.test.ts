/**
 * Threat 2 (contracts-brief §3): abuse of run-time fills. A fill may only write the account's own balance of
 * a token or the account's own address, at a committed offset inside the call's data. There is no fill that
 * writes the caller (msg.sender / tx.origin), and an offset outside the data is refused — by the encoder's
 * validation off-chain and by the account on-chain.
 */
import fc from 'fast-check';
import { encodeFunctionData, parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { intentAccountAbi, intentFactoryAbi } from '../../../src/contracts/abis.generated.ts';
import {
  encodeDeploy,
  encodeDeployIfNeededAndExecute,
  encodeRefund,
} from '../../../src/contracts/calldata.ts';
import { type Fill, FillKind, type Intent, IntentMode } from '../../../src/contracts/types.ts';
import { InvalidIntentError, validateIntent } from '../../../src/contracts/validate-intent.ts';
import { expectRevert, type TestChain } from '../../harness/chain.ts';
import { accountAddress } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import {
  decodeReason,
  deposit,
  executeViaFactory,
  expectExecuteReverts,
  expectRawRevert,
  paymentIntent,
  USDC,
  WINDOW_SECONDS,
  ZERO,
} from './support/fixture.ts';

const AMOUNT = 100n * USDC;
/** Bytes of `transfer(address,uint256)` calldata: selector + two words. */
const TRANSFER_DATA_BYTES = 68;
/** Byte offset of the `to` word of `transfer(to, amount)`. */
const TRANSFER_TO_OFFSET = 4;
/** Each run is one eth_call: enough to hit both sides of the data and the far end of uint32 many times. */
const FUZZ_RUNS = 100;
const MAX_UINT32 = 2 ** 32 - 1;

describe('threat 2: abuse of run-time fills', () => {
  let chain: TestChain;
  useIsolatedTestChains([7_771_002], ([started]) => {
    chain = started;
  });

  /** An intent whose one call is `transfer(recipient, amount)` with the given fills on it. */
  async function intentWithFills(fills: Fill[], amount = AMOUNT): Promise<Intent> {
    const base = paymentIntent(chain, {
      recipient: chain.accounts.feeCollector.address,
      amount,
      deadline: (await chain.now()) + WINDOW_SECONDS,
    });
    return { ...base, calls: [{ ...base.calls[0]!, fills }] };
  }

  it('test_validateIntent_rejectsEveryFillKindOtherThanOwnBalanceOrOwnAddress (a caller fill cannot be encoded)', async () => {
    const kinds = fc
      .integer({ min: 0, max: 255 })
      .filter((k) => k !== FillKind.OwnBalance && k !== FillKind.OwnAddress);
    const intent = await intentWithFills([]);
    fc.assert(
      fc.property(kinds, (kind) => {
        const fill = { kind, token: ZERO, offset: TRANSFER_TO_OFFSET } as unknown as Fill;
        expect(() => validateIntent({ ...intent, calls: [{ ...intent.calls[0]!, fills: [fill] }] })).toThrow(
          InvalidIntentError,
        );
      }),
    );
  });

  it('test_execute_revertsInvalidFillKind_forTheNoneKind_andTheDepositStaysRefundable', async () => {
    const intent = await intentWithFills([
      { kind: 0, token: ZERO, offset: TRANSFER_TO_OFFSET } as unknown as Fill,
    ]);
    const { address: account } = accountAddress(chain, intent);
    const { usdc } = chain.tokens;
    const user = chain.accounts.user.address;
    await deposit(chain, usdc, account, AMOUNT);
    const userBefore = await chain.balanceOf(usdc, user);
    const args = await expectExecuteReverts(chain, intent, 'InvalidFillKind');
    expect(args).toEqual([0n]);
    expect(await chain.balanceOf(usdc, account)).toBe(AMOUNT);
    await chain.send('relayer', { to: chain.contracts.intentFactory, data: encodeDeploy(intent) });
    await chain.send('user', { to: account, data: encodeRefund(intent, [usdc], false) });
    expect(await chain.balanceOf(usdc, user)).toBe(userBefore + AMOUNT);
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(0n);
  });

  it('test_hashIntent_reverts_forAFillKindOutsideTheEnum (no account can exist for it)', async () => {
    const intent = await intentWithFills([
      { kind: 3, token: ZERO, offset: TRANSFER_TO_OFFSET } as unknown as Fill,
    ]);
    await expectRawRevert(chain, 'relayer', {
      to: chain.contracts.intentFactory,
      data: encodeFunctionData({ abi: intentFactoryAbi, functionName: 'hashIntent', args: [intent] }),
    });
    await expectRawRevert(chain, 'relayer', executeViaFactory(chain, intent));
  });

  it('test_execute_ownAddressFillInTheRecipientSlotWritesTheAccount_neverTheCaller', async () => {
    const intent = await intentWithFills([
      { kind: FillKind.OwnAddress, token: ZERO, offset: TRANSFER_TO_OFFSET },
    ]);
    const { address: account } = accountAddress(chain, intent);
    const { usdc } = chain.tokens;
    const { user, relayer, feeCollector } = chain.accounts;
    await deposit(chain, usdc, account, AMOUNT);
    const userBefore = await chain.balanceOf(usdc, user.address);
    await chain.send('relayer', executeViaFactory(chain, intent));
    // transfer(account, amount) moved nothing out; the sweep returned it all to the owner.
    expect(await chain.balanceOf(usdc, relayer.address)).toBe(0n);
    expect(await chain.balanceOf(usdc, feeCollector.address)).toBe(0n);
    expect(await chain.balanceOf(usdc, user.address)).toBe(userBefore + AMOUNT);
    expect(await chain.balanceOf(usdc, account)).toBe(0n);
  });

  it('test_execute_revertsFillOutOfBounds_forFuzzedOffsetsPastTheCalldataOrOverTheSelector (fuzz)', async () => {
    const outside = fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: TRANSFER_DATA_BYTES - 31, max: TRANSFER_DATA_BYTES + 64 }),
      fc.integer({ min: TRANSFER_DATA_BYTES + 65, max: MAX_UINT32 }),
    );
    const kind = fc.constantFrom(FillKind.OwnBalance, FillKind.OwnAddress);
    const template = await intentWithFills([], 0n);
    await fc.assert(
      fc.asyncProperty(outside, kind, async (offset, fillKind) => {
        const fill: Fill = { kind: fillKind, token: chain.tokens.usdc, offset };
        const intent: Intent = { ...template, calls: [{ ...template.calls[0]!, fills: [fill] }] };
        expect(() => validateIntent(intent)).toThrow(InvalidIntentError);
        const args = await expectRevert(
          chain.publicClient.call({
            account: chain.accounts.relayer,
            to: chain.contracts.intentFactory,
            data: encodeDeployIfNeededAndExecute(intent),
          }),
          'FillOutOfBounds',
        );
        expect(args).toEqual([0n, BigInt(offset), BigInt(TRANSFER_DATA_BYTES)]);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('test_execute_revertsFillOutOfBounds_oneBytePastTheEnd_withTheDepositKept; the last word is accepted', async () => {
    const { usdc } = chain.tokens;
    const lastWord = TRANSFER_DATA_BYTES - 32;
    const good = await intentWithFills([{ kind: FillKind.OwnBalance, token: usdc, offset: lastWord }]);
    expect(() => validateIntent(good)).not.toThrow();
    const bad = await intentWithFills([{ kind: FillKind.OwnBalance, token: usdc, offset: lastWord + 1 }]);
    const { address: account } = accountAddress(chain, bad);
    await deposit(chain, usdc, account, AMOUNT);
    const args = await expectExecuteReverts(chain, bad, 'FillOutOfBounds');
    expect(args).toEqual([0n, BigInt(lastWord + 1), BigInt(TRANSFER_DATA_BYTES)]);
    expect(await chain.balanceOf(usdc, account)).toBe(AMOUNT);
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(0n);

    // The same fill at the last word writes the own balance into transfer's amount and pays it.
    const { address: goodAccount } = accountAddress(chain, good);
    await deposit(chain, usdc, goodAccount, AMOUNT);
    await chain.send('relayer', executeViaFactory(chain, good));
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(AMOUNT);
  });

  it('test_execute_destinationMode_unknownFillKind_refundsTheOwnerInsteadOfPaying', async () => {
    const base = await intentWithFills([
      { kind: 0, token: ZERO, offset: TRANSFER_TO_OFFSET } as unknown as Fill,
    ]);
    const intent: Intent = { ...base, mode: IntentMode.Destination, executor: ZERO, minGas: 200_000n };
    const { address: account } = accountAddress(chain, intent);
    const { usdc } = chain.tokens;
    const user = chain.accounts.user.address;
    await deposit(chain, usdc, account, AMOUNT);
    const userBefore = await chain.balanceOf(usdc, user);
    const receipt = await chain.send('stranger', executeViaFactory(chain, intent));
    const failed = parseEventLogs({
      abi: intentAccountAbi,
      eventName: 'DestinationFailed',
      logs: receipt.logs,
    });
    expect(failed).toHaveLength(1);
    expect(decodeReason(failed[0]!.args.reason)).toEqual({ errorName: 'InvalidFillKind', args: [0n] });
    expect(await chain.balanceOf(usdc, user)).toBe(userBefore + AMOUNT);
    expect(await chain.balanceOf(usdc, chain.accounts.feeCollector.address)).toBe(0n);
    expect(await chain.balanceOf(usdc, chain.accounts.stranger.address)).toBe(0n);
    expect(await chain.balanceOf(usdc, account)).toBe(0n);
  });
});
