import type { PublicClient } from 'viem';

/** What a transaction sent now may pay per gas at most: EIP-1559's maxFeePerGas, else the legacy price. */
export async function currentFeePerGas(publicClient: PublicClient): Promise<bigint> {
  try {
    return (await publicClient.estimateFeesPerGas()).maxFeePerGas;
  } catch {
    // A chain without EIP-1559 (no base fee): viem refuses the estimate, the legacy price applies.
    return publicClient.getGasPrice();
  }
}
