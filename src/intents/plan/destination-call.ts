/**
 * The destination call, made to use what actually arrived. The caller's calldata was written before the
 * route was known, so the amount in it is a guess. Rule: every 32-byte ABI word after the selector (at byte
 * offsets 4 + 32·k) that equals the 0xdeadbeef… placeholder, or equals the quoted destination amount, is
 * filled at execution with the account's own balance of the delivered token. Other words stay as given.
 */
import { type Address, type Hex, hexToBigInt, isAddressEqual, sliceHex, zeroAddress } from 'viem';
import { ERC20_AMOUNT_OFFSET, type Fill, FillKind, type IntentCall } from '../../contracts/types.ts';
import { AMOUNT_PLACEHOLDER } from './constants.ts';

const SELECTOR_BYTES = 4;
const WORD_BYTES = 32;

/** Offsets of the words to fill with the delivered amount. */
export function findAmountWords(data: Hex, quotedAmount: bigint | undefined): number[] {
  const bytes = (data.length - 2) / 2;
  const placeholder = hexToBigInt(AMOUNT_PLACEHOLDER);
  const offsets: number[] = [];
  for (let offset = SELECTOR_BYTES; offset + WORD_BYTES <= bytes; offset += WORD_BYTES) {
    const word = hexToBigInt(sliceHex(data, offset, offset + WORD_BYTES));
    if (word === placeholder || (quotedAmount !== undefined && quotedAmount > 0n && word === quotedAmount)) {
      offsets.push(offset);
    }
  }
  return offsets;
}

export interface DestinationCallInput {
  /** The delivered ERC-20 the call spends. */
  token: Address;
  target: Address;
  data: Hex;
  value: bigint;
  approveAddress?: Address | undefined;
  quotedAmount?: bigint | undefined;
}

/** approve(approveAddress, own balance) when asked, then the call with its amount words filled. */
export function destinationCallCalls(input: DestinationCallInput): IntentCall[] {
  const ownBalance = (offset: number): Fill => ({ kind: FillKind.OwnBalance, token: input.token, offset });
  const calls: IntentCall[] = [];
  if (input.approveAddress && !isAddressEqual(input.approveAddress, zeroAddress)) {
    calls.push(approveCall(input.token, input.approveAddress, ownBalance(ERC20_AMOUNT_OFFSET)));
  }
  const fills = findAmountWords(input.data, input.quotedAmount).map(ownBalance);
  calls.push({ target: input.target, value: input.value, data: input.data, fills });
  return calls;
}

function approveCall(token: Address, spender: Address, fill: Fill): IntentCall {
  // approve(spender, 0) with the amount word filled: selector 0x095ea7b3.
  const data = `0x095ea7b3${spender.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}` as Hex;
  return { target: token, value: 0n, data, fills: [fill] };
}
