/**
 * What a chain charges for gas now: the EIP-1559 base fee of its latest block and the priority fee its node
 * suggests, or, on a chain without EIP-1559 (no `baseFeePerGas` in its blocks), the legacy gas price.
 * The transaction sender signs from it (fee-caps.ts) and the quote prices gas from it.
 */
import type { PublicClient } from 'viem';

export type ChainFees =
  | { type: 'eip1559'; baseFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint };

/**
 * `latest` is the chain's latest block (a shared cache's read, or a fresh one). The priority fee is read
 * beside it, so an EIP-1559 chain costs one round trip; a legacy chain then reads its gas price.
 */
export async function readChainFees(
  client: PublicClient,
  latest: Promise<{ baseFeePerGas: bigint | null }>,
): Promise<ChainFees> {
  const tip = client.request({ method: 'eth_maxPriorityFeePerGas' }).then(BigInt);
  // A pre-London node may not know the method; its answer only matters once the block says EIP-1559.
  tip.catch(() => {});
  const block = await latest;
  if (block.baseFeePerGas == null) return { type: 'legacy', gasPrice: await client.getGasPrice() };
  return { type: 'eip1559', baseFeePerGas: block.baseFeePerGas, maxPriorityFeePerGas: await tip };
}

/** What one unit of gas costs now: base fee + priority fee, or the legacy gas price (wei). */
export function currentGasPrice(fees: ChainFees): bigint {
  return fees.type === 'legacy' ? fees.gasPrice : fees.baseFeePerGas + fees.maxPriorityFeePerGas;
}
