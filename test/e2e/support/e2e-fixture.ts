/**
 * The whole service for end-to-end tests: a devnet, a SQLite store in a file, the intent services with the
 * REAL engine (relayer, solver and attester keys of the devnet), and the API listening on a loopback port.
 * Tests talk to it only the way a user would: the official client (or plain fetch), and the chains.
 */
import { type Address, type Hex, type PublicClient, zeroAddress } from 'viem';
import { createApiServer } from '../../../src/api/server.ts';
import { toLocalAccount } from '../../../src/devnet/accounts.ts';
import { createIntentEngine } from '../../../src/engine/create-intent-engine.ts';
import type { IntentEngine } from '../../../src/engine/types.ts';
import { createIntentServices } from '../../../src/intents/services/index.ts';
import { createSilentLogger } from '../../../src/internal/logger.ts';
import { createPriceSource } from '../../../src/pricing/index.ts';
import { createStore } from '../../../src/store/create-store.ts';
import type { Store } from '../../../src/store/types.ts';
import { createTestDatabase } from '../../harness/database.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../../harness/devnet.ts';

/** The devnet mines at once, so the engine's production poll intervals would only add idle time (ms). */
const E2E_ENGINE_OPTIONS = { stepPollIntervalMs: 20, depositScanIntervalMs: 100 } as const;
/** The service fee the e2e server charges (bps): non-zero so the fee collector's balance must move. */
export const E2E_SERVICE_FEE_BPS = 25n;

export interface E2eService {
  net: TestDevnet;
  store: Store;
  /** The devnet project's access key. */
  key: string;
  /** http://127.0.0.1:<port> */
  url: string;
  engine: IntentEngine;
  chain(chainId: number | bigint): TestDevnetChain;
  /** An ERC-20 balance, or the native balance for the zero address. */
  balance(chainId: number | bigint, token: string, holder: string): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startE2eService(): Promise<E2eService> {
  const [net, database] = await Promise.all([startTestDevnet(), createTestDatabase('sqlite')]);
  const log = createSilentLogger();
  const store = await createStore({ ...database.options, log });
  const project = await store.projects.ensure('devnet');
  const { key } = await store.accessKeys.create({ projectId: project.id });
  const clients = new Map(
    net.chains.map((c) => [c.entry.chainId, c.publicClient as unknown as PublicClient]),
  );
  const accounts = net.devnet.accounts;
  const engine = createIntentEngine({
    store,
    chains: net.chainConfigs,
    clients,
    keys: {
      relayer: toLocalAccount(accounts.relayer!),
      solver: toLocalAccount(accounts.solver!),
      attester: toLocalAccount(accounts.attester!),
    },
    log,
    options: E2E_ENGINE_OPTIONS,
  });
  await engine.start();
  const prices = createPriceSource({ chains: net.chainConfigs, clients, log });
  const services = createIntentServices({
    store,
    chains: net.chainConfigs,
    clients,
    prices,
    engine,
    operator: {
      relayer: accounts.relayer!.address,
      solver: accounts.solver!.address,
      feeCollector: accounts.feeCollector!.address,
    },
    config: { serviceFeeBps: E2E_SERVICE_FEE_BPS },
    log,
  });
  const api = await createApiServer({
    chains: net.chainConfigs,
    store,
    prices,
    services,
    log,
    rateLimit: false,
  });
  const url = await api.listen(0, '127.0.0.1');
  const chain = (chainId: number | bigint) => {
    const found = net.chains.find((c) => c.entry.chainId === Number(chainId));
    if (!found) throw new Error(`no devnet chain ${chainId}`);
    return found;
  };
  return {
    net,
    store,
    key,
    url,
    engine,
    chain,
    balance: (chainId, token, holder) => balanceOf(chain(chainId), token as Address, holder as Address),
    async stop() {
      services.close();
      await api.close();
      await engine.stop();
      await store.close();
      await Promise.all([net.stop(), database.drop()]);
    },
  };
}

export function balanceOf(chain: TestDevnetChain, token: Address, holder: Address): Promise<bigint> {
  if (token === zeroAddress) return chain.publicClient.getBalance({ address: holder });
  return chain.publicClient.readContract({
    address: token,
    abi: [
      {
        type: 'function',
        name: 'balanceOf',
        stateMutability: 'view',
        inputs: [{ name: 'a', type: 'address' }],
        outputs: [{ name: '', type: 'uint256' }],
      },
    ] as const,
    functionName: 'balanceOf',
    args: [holder],
  });
}

/** The native cost a transaction's sender paid for gas (wei). */
export async function gasPaid(chain: TestDevnetChain, hash: Hex): Promise<bigint> {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash });
  return receipt.gasUsed * receipt.effectiveGasPrice;
}
