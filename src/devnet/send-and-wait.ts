/** Writes a contract call and waits for a successful receipt; a revert is an error naming the call. */
import type { Abi, ContractFunctionArgs, ContractFunctionName, Hash, WriteContractParameters } from 'viem';
import { SwitchyardError } from '../internal/errors.ts';
import type { DevnetPublicClient, DevnetWalletClient } from './chain-clients.ts';

/**
 * eth_estimateGas runs against the latest block, but the transaction lands in the next one. A call
 * whose storage writes depend on block.timestamp (AccruingVault.fundYield rewrites `lastDrip`) can cost
 * a few thousand gas more there than estimated and run out; 25 % more covers it, and gas is free here.
 */
const GAS_MARGIN_PERCENT = 125n;

/** The gas limit to send with for an estimate taken a block before (GAS_MARGIN_PERCENT). */
export function withGasMargin(estimate: bigint): bigint {
  return (estimate * GAS_MARGIN_PERCENT) / 100n;
}
/** Under automine a receipt arrives in milliseconds; a minute means the chain is gone, not slow. */
export const RECEIPT_TIMEOUT_MS = 60_000;

/** A setup transaction reverted. */
export class DevnetSetupTransactionError extends SwitchyardError {
  override readonly name = 'DevnetSetupTransactionError';
}

export async function sendAndWait<
  const TAbi extends Abi,
  TName extends ContractFunctionName<TAbi, 'nonpayable' | 'payable'>,
  TArgs extends ContractFunctionArgs<TAbi, 'nonpayable' | 'payable', TName>,
>(
  clients: { publicClient: DevnetPublicClient; walletClient: DevnetWalletClient },
  request: Omit<WriteContractParameters<TAbi, TName, TArgs>, 'chain' | 'account'>,
): Promise<Hash> {
  const account = clients.walletClient.account;
  const estimate = await clients.publicClient.estimateContractGas({ ...request, account } as never);
  const gas = withGasMargin(estimate);
  const hash = await clients.walletClient.writeContract({ ...request, gas } as never);
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
  if (receipt.status !== 'success') {
    throw new DevnetSetupTransactionError(`devnet setup call ${String(request.functionName)} reverted`, {
      details: { to: request.address, transactionHash: hash, gasLimit: gas, gasUsed: receipt.gasUsed },
    });
  }
  return hash;
}
