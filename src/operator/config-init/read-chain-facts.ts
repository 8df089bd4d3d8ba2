/**
 * Everything `config init` writes about one chain, read from its RPC and the public-network registry: the
 * chain id, the registry's names, explorer, confirmations, tokens and DEX contracts (those with code on the
 * chain), the tokens given with --token (their decimals and name read from the chain), and our contracts at
 * their deterministic addresses, which must hold this build's code.
 */
import { type Address, getAddress, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { findCodeProblems } from '../../contracts/find-code-problems.ts';
import type { ExternalContracts, SwitchyardContracts, TokenConfig } from '../../internal/config-types.ts';
import { ConfigError, SwitchyardError } from '../../internal/errors.ts';
import { connectChain } from '../connect-chain.ts';
import type { PublicNetworkRegistry, RegistryNetwork } from '../public-networks.ts';
import { findPublicNetwork } from '../public-networks.ts';
import { readErc20Metadata } from './erc20-metadata.ts';
import type { TokenFlag } from './parse-flags.ts';

/**
 * Confirmations for a chain the registry does not know: one block, which suits a local or private chain;
 * the warning asks the operator to set the depth at which the chain's blocks are final.
 */
export const UNKNOWN_CHAIN_CONFIRMATIONS = 1;
const UNKNOWN_CHAIN_CURRENCY = { name: 'Ether', symbol: 'ETH', decimals: 18 };

export interface ChainFacts {
  chainId: number;
  rpcUrl: string;
  /** The registry's entry, when the chain is a known public network. */
  network: RegistryNetwork | undefined;
  name: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  explorerUrl: string | undefined;
  isTestnet: boolean;
  confirmations: number;
  /** The native currency first (zero address), then the ERC-20s. */
  tokens: TokenConfig[];
  contracts: SwitchyardContracts & ExternalContracts;
}

/** Switchyard is not (or not this build) at its addresses on a chain. */
export class SwitchyardNotDeployedError extends SwitchyardError {
  override readonly name = 'SwitchyardNotDeployedError';
}

export type Warn = (message: string, fields?: Record<string, unknown>) => void;

export async function readChainFacts(p: {
  rpcUrl: string;
  registry: PublicNetworkRegistry;
  ours: SwitchyardContracts;
  tokenFlags: readonly TokenFlag[];
  warn: Warn;
}): Promise<ChainFacts> {
  const { chainId, publicClient } = await connectChain(p.rpcUrl);
  const client = publicClient as PublicClient;
  await requireOurContracts(client, chainId, p.ours);
  const network = findPublicNetwork(p.registry, chainId);
  const nativeCurrency = network?.nativeCurrency ?? UNKNOWN_CHAIN_CURRENCY;
  if (!network) {
    p.warn(
      `chain ${chainId} is not in the public-network registry: its name, native currency (${nativeCurrency.symbol} assumed) ` +
        `and confirmations (${UNKNOWN_CHAIN_CONFIRMATIONS}) are defaults; check them in the file`,
      { chainId },
    );
  }
  const flagged = await flaggedTokens(client, chainId, p.tokenFlags, p.warn);
  const listed = await registryTokens(client, network, p.warn);
  const erc20s = [...listed.filter((t) => !flagged.some((f) => f.symbol === t.symbol)), ...flagged];
  const external = await externalContracts(client, network, erc20s, nativeCurrency.symbol, p.warn);
  const native: TokenConfig = { ...nativeCurrency, address: zeroAddress, featured: true };
  return {
    chainId,
    rpcUrl: p.rpcUrl,
    network,
    name: network?.name ?? `Chain ${chainId}`,
    nativeCurrency,
    explorerUrl: network?.explorerUrl,
    isTestnet: network?.isTestnet ?? false,
    confirmations: network?.confirmations ?? UNKNOWN_CHAIN_CONFIRMATIONS,
    tokens: [native, ...erc20s],
    contracts: { ...p.ours, ...external },
  };
}

async function requireOurContracts(client: PublicClient, chainId: number, ours: SwitchyardContracts) {
  const [problem] = await findCodeProblems(client, ours);
  if (!problem) return;
  throw new SwitchyardNotDeployedError(
    `chain ${chainId}: ${problem.contract} at ${problem.address} ${problem.problem}: Switchyard is not deployed ` +
      'there for this attester; run switchyard deploy with the same SWITCHYARD_ATTESTER_ADDRESS first',
    { details: { chainId, ...problem } },
  );
}

async function hasCode(client: PublicClient, address: Address): Promise<boolean> {
  const code = await client.getCode({ address });
  return Boolean(code && code !== '0x');
}

async function registryTokens(client: PublicClient, network: RegistryNetwork | undefined, warn: Warn) {
  const tokens = network?.tokens ?? [];
  const present = await Promise.all(tokens.map((t) => hasCode(client, t.address)));
  return tokens.flatMap((t, i): TokenConfig[] => {
    if (present[i]) {
      const { source: _source, ...token } = t;
      return [{ ...token, featured: true }];
    }
    warn(`chain ${network!.chainId}: the registry's ${t.symbol} ${t.address} has no code here; left out`, {
      chainId: network!.chainId,
    });
    return [];
  });
}

async function flaggedTokens(client: PublicClient, chainId: number, flags: readonly TokenFlag[], warn: Warn) {
  const mine = flags.filter((f) => f.chainId === chainId);
  return Promise.all(
    mine.map(async (flag): Promise<TokenConfig> => {
      const metadata = await readErc20Metadata(client, flag.address);
      if (!metadata) {
        throw new ConfigError(
          `--token ${flag.symbol}=${flag.address}@${chainId}: no ERC-20 answers decimals() at that address on chain ${chainId}`,
        );
      }
      if (metadata.symbol !== undefined && metadata.symbol !== flag.symbol) {
        warn(`--token ${flag.symbol} on chain ${chainId}: the contract calls itself ${metadata.symbol}`, {
          chainId,
        });
      }
      return {
        symbol: flag.symbol,
        name: metadata.name ?? flag.symbol,
        address: flag.address,
        decimals: metadata.decimals,
        featured: true,
      };
    }),
  );
}

const routerWethAbi = [
  { type: 'function', name: 'WETH', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
] as const;

/**
 * The registry's DEX and wrapper contracts that have code here; the native wrapper may also come from a
 * --token named W + the native symbol (WETH on an ETH chain). A router whose WETH() is another contract than
 * the wrapper is reported: swaps into or out of native would not work.
 */
async function externalContracts(
  client: PublicClient,
  network: RegistryNetwork | undefined,
  tokens: readonly TokenConfig[],
  nativeSymbol: string,
  warn: Warn,
): Promise<ExternalContracts> {
  const out: ExternalContracts = {};
  for (const [name, entry] of Object.entries(network?.contracts ?? {})) {
    if (await hasCode(client, entry.address)) out[name] = getAddress(entry.address);
    else
      warn(`chain ${network!.chainId}: the registry's ${name} ${entry.address} has no code here; left out`);
  }
  const wrapper = tokens.find((t) => t.symbol === `W${nativeSymbol}`);
  if (wrapper) out.weth = wrapper.address;
  if (out.uniswapV2Router && out.weth) {
    const routerWeth = await client.readContract({
      address: out.uniswapV2Router,
      abi: routerWethAbi,
      functionName: 'WETH',
    });
    if (!isAddressEqual(routerWeth, out.weth)) {
      warn(
        `chain ${network?.chainId}: the router's WETH() is ${routerWeth}, not the listed wrapper ${out.weth}`,
      );
    }
  }
  return out;
}
