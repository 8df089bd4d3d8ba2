/**
 * YieldCreateExitAction's `args` (optional): an amount of the underlying to withdraw, as `amount` (whole
 * tokens, decimal string) or `amountRaw` (base units), or `useMaxAmount: true` for the whole position;
 * without any of them the action also redeems the whole position. `receiverAddress` gets the underlying
 * (default: the wallet whose shares are redeemed).
 */
import type { Address } from 'viem';
import { InvalidInputError } from '../internal/errors.ts';
import { parseEnterArgs } from './parse-enter-args.ts';

export interface ExitArgs {
  /** Underlying base units to withdraw; undefined: redeem every share the wallet holds. */
  amount: bigint | undefined;
  receiver: Address;
}

export function parseExitArgs(args: unknown, wallet: Address, tokenDecimals: number): ExitArgs {
  const { amount, receiver } = parseEnterArgs(args, wallet, tokenDecimals);
  const useMax = (args as Record<string, unknown> | undefined)?.useMaxAmount;
  if (useMax !== undefined && useMax !== null && typeof useMax !== 'boolean') {
    throw new InvalidInputError('args.useMaxAmount', 'must be true or false');
  }
  if (useMax === true && amount !== undefined) {
    throw new InvalidInputError(
      'args.useMaxAmount',
      'redeems the whole position; give it or an amount (args.amount, args.amountRaw), not both',
    );
  }
  return { amount, receiver };
}
