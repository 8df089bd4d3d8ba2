/**
 * A plain anvil chain for the operator tests, as a stranger's chain would be: nothing of ours on it. Keys are
 * fresh; `fund` gives an address ETH (and only ETH); `deployWeth9` deploys WETH9 from the Uniswap npm
 * artifact, the one token such a chain gets.
 */
import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
  type Transport,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type AnvilInstance, startAnvil } from '../../../src/chains/anvil.ts';
import { loadUniswapArtifacts } from '../../../src/devnet/uniswap-artifacts.ts';

/** Local chains answer in milliseconds; viem's 4 s default would dominate every wait (ms). */
const POLLING_INTERVAL_MS = 50;

export interface FreshChain {
  chainId: number;
  rpcUrl: string;
  chain: Chain;
  client: PublicClient<Transport, Chain>;
  test: TestClient<'anvil'>;
  fund(address: Address, wei: bigint): Promise<void>;
  /** Sends a transaction from `key` and waits for it; throws when it reverts. */
  send(key: Hex, tx: { to?: Address; data?: Hex; value?: bigint }): Promise<Address | undefined>;
  deployWeth9(): Promise<Address>;
  stop(): Promise<void>;
}

export async function startFreshChain(chainId: number, extraArgs: string[] = []): Promise<FreshChain> {
  const anvil: AnvilInstance = await startAnvil({ chainId, extraArgs });
  const chain = defineChain({
    id: chainId,
    name: `fresh ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const transport = http(anvil.rpcUrl);
  const client = createPublicClient({ chain, transport, pollingInterval: POLLING_INTERVAL_MS });
  const test = createTestClient({ mode: 'anvil', transport });
  const send: FreshChain['send'] = async (key, tx) => {
    const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(key) });
    const hash = await wallet.sendTransaction(tx);
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} on chain ${chainId} reverted`);
    return receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined;
  };
  return {
    chainId,
    rpcUrl: anvil.rpcUrl,
    chain,
    client,
    test,
    fund: (address, wei) => test.setBalance({ address, value: wei }),
    send,
    async deployWeth9() {
      const key = generatePrivateKey();
      await test.setBalance({ address: privateKeyToAccount(key).address, value: 10n ** 18n });
      const address = await send(key, { data: loadUniswapArtifacts().weth9.bytecode });
      if (!address) throw new Error(`WETH9 deployment on chain ${chainId} created no contract`);
      return address;
    },
    stop: () => anvil.stop(),
  };
}
