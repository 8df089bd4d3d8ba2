/** A token's EIP-712 domain name and version (EIP-5267 `eip712Domain()`, else `name()` and "1"). */
import { type Address, erc20Abi, type PublicClient, parseAbi } from 'viem';
import { withChainErrors } from '../../chains/map-chain-error.ts';

const EIP5267_ABI = parseAbi([
  'function eip712Domain() view returns (bytes1, string, string, uint256, address, bytes32, uint256[])',
]);

export interface TokenDomain {
  name: string;
  version: string;
}

export async function readTokenDomain(client: PublicClient, token: Address): Promise<TokenDomain> {
  try {
    const [, name, version] = await client.readContract({
      address: token,
      abi: EIP5267_ABI,
      functionName: 'eip712Domain',
    });
    return { name, version };
  } catch {
    // Tokens older than EIP-5267 (most permit tokens): the name, and the version every OZ permit uses.
    const name = await withChainErrors(() =>
      client.readContract({ address: token, abi: erc20Abi, functionName: 'name' }),
    );
    return { name, version: '1' };
  }
}
