/** Token facts a quote states: decimals and symbol from the configuration, EIP-2612 support from the chain. */
import { type Address, isAddressEqual, type PublicClient, parseAbi, zeroAddress } from 'viem';
import type { ChainConfig } from '../../internal/config-types.ts';

const PERMIT_ABI = parseAbi(['function DOMAIN_SEPARATOR() view returns (bytes32)']);

export function tokenDecimals(chain: ChainConfig, token: Address): number {
  if (isAddressEqual(token, zeroAddress)) return chain.nativeCurrency.decimals;
  const listed = chain.tokens.find((t) => isAddressEqual(t.address, token));
  return listed?.decimals ?? 18;
}

/**
 * True when the token answers `DOMAIN_SEPARATOR()` (an EIP-2612 token). Answers are cached per factory:
 * a token's code does not change while the server runs.
 */
export function createPermitProbe(getClient: (chainId: number) => PublicClient) {
  const known = new Map<string, Promise<boolean>>();
  return (chainId: number, token: Address): Promise<boolean> => {
    if (isAddressEqual(token, zeroAddress)) return Promise.resolve(false);
    const key = `${chainId}:${token.toLowerCase()}`;
    let answer = known.get(key);
    if (!answer) {
      answer = getClient(chainId)
        .readContract({ address: token, abi: PERMIT_ABI, functionName: 'DOMAIN_SEPARATOR' })
        .then(
          () => true,
          () => false,
        );
      known.set(key, answer);
    }
    return answer;
  };
}
