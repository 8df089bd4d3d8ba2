import type { SignedFees } from './fee-caps.ts';

/**
 * Fees one wei below the chain's tip (or legacy gas price), so a pool ordering by fee, then arrival, puts the
 * transaction right after the one it depends on (an `unsimulated` send).
 */
export function oneWeiBelow(fees: SignedFees): SignedFees {
  if (fees.type === 'legacy') return { ...fees, gasPrice: fees.gasPrice > 0n ? fees.gasPrice - 1n : 0n };
  const tip = fees.maxPriorityFeePerGas;
  return { ...fees, maxPriorityFeePerGas: tip > 0n ? tip - 1n : 0n };
}
