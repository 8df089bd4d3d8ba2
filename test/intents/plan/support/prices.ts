/**
 * USD prices for tests, read from the devnet's own pools against the USD reference token (USDC = 1): DAI from
 * USDC/DAI, WETH and ETH from USDC/WETH. A stand-in for the server's price source.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem';
import type { GetPriceUsd } from '../../../../src/intents/plan/types.ts';
import type { ChainConfig } from '../../../../src/internal/config-types.ts';
import { uniswapV2FactoryAbi, uniswapV2PairAbi } from '../../../../src/providers/abis.ts';
import type { TestDevnet } from '../../../harness/devnet.ts';

export function poolPrices(net: TestDevnet): GetPriceUsd {
  return async (chainId, token) => {
    const chain = net.chainConfigs.find((c) => c.chainId === chainId);
    const client = net.chains.find((c) => c.entry.chainId === chainId)?.publicClient;
    if (!chain || !client) return undefined;
    const usd = chain.tokens.find((t) => t.isUsdReference)!;
    const address = isAddressEqual(token, zeroAddress) ? chain.contracts.weth! : token;
    if (isAddressEqual(address, usd.address)) return 1;
    const pair = await client.readContract({
      address: chain.contracts.uniswapV2Factory!,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [address, usd.address],
    });
    if (isAddressEqual(pair, zeroAddress)) return undefined;
    const [[r0, r1], token0] = await Promise.all([
      client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' }),
      client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'token0' }),
    ]);
    const [reserveToken, reserveUsd] = isAddressEqual(token0, address) ? [r0, r1] : [r1, r0];
    const decimals = decimalsOf(chain, address);
    return Number(reserveUsd) / 10 ** usd.decimals / (Number(reserveToken) / 10 ** decimals);
  };
}

function decimalsOf(chain: ChainConfig, token: Address): number {
  return chain.tokens.find((t) => isAddressEqual(t.address, token))?.decimals ?? 18;
}
