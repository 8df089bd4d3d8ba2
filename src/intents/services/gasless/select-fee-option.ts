/**
 * `selectedGasFeeOption` must be one of the quote's ERC-20 gas fee options (matched on token, amount and
 * collector). The relayer takes that fee in the deposit token through the intent's committed fee
 * transfer, so a native option cannot pay for a gasless deposit.
 */
import { isAddressEqual, zeroAddress } from 'viem';
import { InvalidInputError } from '../../../internal/errors.ts';
import type { ExecutionPlan, FeeOption } from '../../plan/types.ts';

const FIELD = 'depositSignature.selectedGasFeeOption';

export interface SelectedOption {
  tokenAddress: string;
  amount: bigint;
  feeCollectorAddress: string;
}

export function selectFeeOption(plan: ExecutionPlan, selected: SelectedOption): FeeOption {
  if (isAddressEqual(selected.tokenAddress as `0x${string}`, zeroAddress)) {
    throw new InvalidInputError(
      FIELD,
      'is the native option: a gasless deposit pays its fee in the deposit token (choose an ERC-20 option)',
    );
  }
  const match = plan.gasFeeOptions.feeOptions.find(
    (o) =>
      isAddressEqual(o.tokenAddress, selected.tokenAddress as `0x${string}`) &&
      o.amount === selected.amount &&
      isAddressEqual(o.feeCollectorAddress, selected.feeCollectorAddress as `0x${string}`),
  );
  if (!match) {
    const offered = plan.gasFeeOptions.feeOptions
      .filter((o) => !isAddressEqual(o.tokenAddress, zeroAddress))
      .map((o) => `${o.tokenSymbol} ${o.tokenAddress} amount ${o.amount} collector ${o.feeCollectorAddress}`);
    throw new InvalidInputError(
      FIELD,
      `is not one of this quote's gas fee options (got token ${selected.tokenAddress} amount ${selected.amount} collector ${selected.feeCollectorAddress}; offered: ${offered.join('; ') || 'none'})`,
    );
  }
  if (!isAddressEqual(match.tokenAddress, plan.origin.intent.depositToken)) {
    throw new InvalidInputError(FIELD, 'must be in the deposit token: the fee comes out of the deposit');
  }
  return match;
}
