/** Mints devnet tokens (their `mint` is open to anyone) and waits for the receipt. */
import type { Address } from 'viem';
import { mintableTokenAbi } from './abis.ts';
import type { DevnetPublicClient, DevnetWalletClient } from './chain-clients.ts';
import { sendAndWait } from './send-and-wait.ts';

export async function mint(
  clients: { publicClient: DevnetPublicClient; walletClient: DevnetWalletClient },
  token: Address,
  to: Address,
  amount: bigint,
): Promise<void> {
  await sendAndWait(clients, {
    address: token,
    abi: mintableTokenAbi,
    functionName: 'mint',
    args: [to, amount],
  });
}
