/**
 * A plain anvil chain with nothing deployed, for the transaction sender's fee tests: the hardfork and the
 * starting base fee are the test's (a pre-London hardfork has no base fee: the legacy gas price), and the
 * relayer and a recipient are anvil's own funded development accounts.
 */
import {
  type Account,
  createPublicClient,
  createTestClient,
  defineChain,
  http,
  type LocalAccount,
  type PublicClient,
  type TestClient,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { startAnvil } from '../../../src/chains/anvil.ts';
import { POLLING_INTERVAL_MS } from '../../harness/chain.ts';

/** anvil's development mnemonic: its first accounts hold 10,000 ETH each. */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

export interface BareChain {
  chainId: number;
  publicClient: PublicClient;
  testClient: TestClient;
  relayer: LocalAccount;
  recipient: Account;
  stop(): Promise<void>;
}

export async function startBareChain(options: {
  chainId: number;
  hardfork?: string;
  /** The first block's base fee (wei); anvil's default is 1 gwei. */
  baseFeePerGas?: bigint;
}): Promise<BareChain> {
  const anvil = await startAnvil({
    chainId: options.chainId,
    ...(options.hardfork && { hardfork: options.hardfork }),
    ...(options.baseFeePerGas !== undefined && {
      extraArgs: ['--block-base-fee-per-gas', options.baseFeePerGas.toString()],
    }),
  });
  const chain = defineChain({
    id: options.chainId,
    name: `bare-${options.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const transport = http(anvil.rpcUrl);
  return {
    chainId: options.chainId,
    publicClient: createPublicClient({ chain, transport, pollingInterval: POLLING_INTERVAL_MS }),
    testClient: createTestClient({ chain, transport, mode: 'anvil' }),
    relayer: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }),
    recipient: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 6 }),
    stop: () => anvil.stop(),
  };
}
