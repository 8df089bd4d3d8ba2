/**
 * YieldCreateEnterAction's `args` (optional, as the spec has it): at most one of `amount` (whole tokens,
 * decimal string) or `amountRaw` (base units), and an optional `receiverAddress` for the shares (default:
 * the depositing wallet). Without an amount the action deposits what the wallet holds (defaultEnterAmount).
 */
import type { Address } from 'viem';
import { InvalidInputError } from '../internal/errors.ts';
import { normaliseAddress } from '../internal/normalise-address.ts';
import { parseHumanAmount, parseRawAmount } from './parse-token-amount.ts';

export interface EnterArgs {
  /** Undefined when the caller gave none. */
  amount: bigint | undefined;
  receiver: Address;
}

export function parseEnterArgs(args: unknown, wallet: Address, tokenDecimals: number): EnterArgs {
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new InvalidInputError('args', 'must be an object');
  }
  const given = (args ?? {}) as Record<string, unknown>;
  const hasAmount = given.amount !== undefined && given.amount !== null;
  const hasRaw = given.amountRaw !== undefined && given.amountRaw !== null;
  if (hasAmount && hasRaw) {
    throw new InvalidInputError('args.amount', 'give either args.amount or args.amountRaw, not both');
  }
  const amount = hasAmount
    ? parseHumanAmount('args.amount', given.amount, tokenDecimals)
    : hasRaw
      ? parseRawAmount('args.amountRaw', given.amountRaw)
      : undefined;
  return { amount, receiver: parseReceiver(given.receiverAddress, wallet) };
}

function parseReceiver(value: unknown, wallet: Address): Address {
  if (value === undefined || value === null || value === '') return wallet;
  const receiver = typeof value === 'string' ? normaliseAddress(value) : undefined;
  if (receiver === undefined) {
    throw new InvalidInputError(
      'args.receiverAddress',
      'must be a 20-byte hex address (0x followed by 40 hex digits)',
    );
  }
  return receiver;
}
