/**
 * Amounts for enter actions, exactly: `args.amount` is a human decimal string ("12.5") scaled by the
 * token's decimals in bigint arithmetic (never a float); `args.amountRaw` is base units. Zero, negative,
 * non-numeric, too many decimals or more than uint256 is an InvalidInputError naming the field.
 */
import { InvalidInputError } from '../internal/errors.ts';

const MAX_UINT256 = 2n ** 256n - 1n;
const HUMAN_AMOUNT = /^([0-9]+)(?:\.([0-9]+))?$/;
const RAW_AMOUNT = /^[0-9]+$/;

export function parseHumanAmount(field: string, value: unknown, decimals: number): bigint {
  if (typeof value !== 'string') {
    throw new InvalidInputError(field, 'must be a decimal string in whole tokens, e.g. "12.5"');
  }
  const match = HUMAN_AMOUNT.exec(value.trim());
  if (!match) {
    throw new InvalidInputError(field, `must be a positive decimal number in whole tokens, not '${value}'`);
  }
  const [, whole, fraction = ''] = match;
  if (fraction.length > decimals) {
    throw new InvalidInputError(field, `has ${fraction.length} decimal places; the token has ${decimals}`);
  }
  const amount = BigInt(whole! + fraction.padEnd(decimals, '0'));
  return checkRange(field, amount);
}

export function parseRawAmount(field: string, value: unknown): bigint {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !RAW_AMOUNT.test(text.trim())) {
    throw new InvalidInputError(field, 'must be a positive integer in base units (a decimal string)');
  }
  return checkRange(field, BigInt(text.trim()));
}

function checkRange(field: string, amount: bigint): bigint {
  if (amount === 0n) throw new InvalidInputError(field, 'must be greater than zero');
  if (amount > MAX_UINT256) throw new InvalidInputError(field, 'must fit in 256 bits');
  return amount;
}
