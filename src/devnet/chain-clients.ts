/** viem clients for one devnet chain, signing locally with a devnet key. */
import {
  type Account,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { RECEIPT_POLLING_INTERVAL_MS } from './constants.ts';

export type DevnetPublicClient = PublicClient<Transport, Chain>;
export type DevnetWalletClient = WalletClient<Transport, Chain, Account>;

export function devnetChain(chainId: number, name: string, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  });
}

export function createDevnetPublicClient(chain: Chain): DevnetPublicClient {
  return createPublicClient({ chain, transport: http(), pollingInterval: RECEIPT_POLLING_INTERVAL_MS });
}

export function createDevnetWalletClient(chain: Chain, account: Account): DevnetWalletClient {
  return createWalletClient({
    chain,
    account,
    transport: http(),
    pollingInterval: RECEIPT_POLLING_INTERVAL_MS,
  });
}

export type DevnetTestClient = TestClient<'anvil', Transport, Chain>;

/** Everything setup needs on one chain: reads, the deployer's signer and anvil's cheat methods. */
export interface DevnetChainClients {
  publicClient: DevnetPublicClient;
  walletClient: DevnetWalletClient;
  testClient: DevnetTestClient;
}

export function createDevnetTestClient(chain: Chain): DevnetTestClient {
  return createTestClient({ chain, mode: 'anvil', transport: http() });
}
