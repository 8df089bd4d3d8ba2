/** An ERC-20's decimals, name and symbol read from the chain; undefined when the address is no ERC-20. */
import { type Address, erc20Abi, type PublicClient } from 'viem';

export interface Erc20Metadata {
  decimals: number;
  name: string | undefined;
  symbol: string | undefined;
}

export async function readErc20Metadata(
  client: PublicClient,
  address: Address,
): Promise<Erc20Metadata | undefined> {
  const read = <T>(functionName: 'decimals' | 'name' | 'symbol') =>
    client.readContract({ address, abi: erc20Abi, functionName }).then(
      (value) => value as T,
      () => undefined,
    );
  const [decimals, name, symbol] = await Promise.all([
    read<number>('decimals'),
    read<string>('name'),
    read<string>('symbol'),
  ]);
  if (decimals === undefined) return undefined;
  return { decimals: Number(decimals), name, symbol };
}
