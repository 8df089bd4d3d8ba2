/**
 * The whole service for gasless tests: a devnet, a SQLite store, the real engine, the intent services and
 * the API server, assembled as production does (test/harness/app.ts) and driven through the official
 * client. Wallets are fresh keys that hold DevUSDC (minted through the token's open faucet) and no ETH at
 * all; they only ever sign.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, concat, type Hex, keccak256, type PublicClient, toHex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { devUsdcAbi } from '../../src/contracts/abis.generated.ts';
import { createIntentEngine, type IntentEngine } from '../../src/engine/index.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import type { Store } from '../../src/store/index.ts';
import { FAST_ENGINE_OPTIONS, startTestSwitchyard } from '../harness/app.ts';
import type { TestDevnet, TestDevnetChain } from '../harness/devnet.ts';

export interface GaslessService {
  net: TestDevnet;
  store: Store;
  api: TrailsApi;
  /** Stops the running engine; ExecuteIntent still journals work for the next one. */
  stopEngine(): Promise<void>;
  /** Starts a new engine instance on the same store (nothing carried over in memory). */
  startEngine(): Promise<void>;
  stop(): Promise<void>;
}

export async function startGaslessService(): Promise<GaslessService> {
  // The services hand executions to whichever engine instance is current: the tests replace it.
  let engine: IntentEngine | undefined;
  let running = false;
  const app = await startTestSwitchyard({
    projectName: 'gasless-test',
    engine: { requestExecution: (input) => engine!.requestExecution(input) },
    intentServices: { serviceFeeBps: 25n },
    rateLimit: false,
  });
  const clients = new Map(
    app.net.chains.map((c) => [c.entry.chainId, c.publicClient as unknown as PublicClient]),
  );
  const startEngine = async () => {
    engine = createIntentEngine({
      store: app.store,
      chains: app.net.chainConfigs,
      clients,
      keys: devnetOperator(app.net.devnet),
      log: createSilentLogger(),
      options: FAST_ENGINE_OPTIONS,
    });
    await engine.start();
    running = true;
  };
  try {
    await startEngine();
  } catch (error) {
    await app.stop();
    throw error;
  }
  return {
    net: app.net,
    store: app.store,
    api: new TrailsApi(app.key, { hostname: app.url }),
    async stopEngine() {
      await engine!.stop();
      running = false;
    },
    startEngine,
    async stop() {
      if (running) await engine!.stop();
      await app.stop();
    },
  };
}

/** A new key with `amount` DevUSDC on `chain` (minted by the devnet user, who pays that gas) and no ETH. */
export async function fundedWallet(chain: TestDevnetChain, amount: bigint): Promise<PrivateKeyAccount> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const hash = await chain.walletFor('user').writeContract({
    address: chain.entry.tokens.USDC!,
    abi: devUsdcAbi,
    functionName: 'mint',
    args: [wallet.address, amount],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  return wallet;
}

/** The official client's gasless intent struct, written out here independently of the server's copy. */
export function signTrailsIntent(
  wallet: PrivateKeyAccount,
  f: {
    /** The struct's `user`; default the signer (a wrong signer test signs the owner's struct). */
    user?: Address;
    chainId: number;
    entrypoint: Address;
    token: Address;
    amount: bigint;
    intentAddress: Address;
    deadline: number;
    nonce: number;
    feeAmount: bigint;
    feeCollector: Address;
  },
): Promise<Hex> {
  return wallet.signTypedData({
    domain: {
      name: 'TrailsIntentEntrypoint',
      version: '1',
      chainId: f.chainId,
      verifyingContract: f.entrypoint,
    },
    types: {
      TrailsIntent: [
        { name: 'user', type: 'address' },
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint256' },
        { name: 'intentAddress', type: 'address' },
        { name: 'deadline', type: 'uint256' },
        { name: 'chainId', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'feeAmount', type: 'uint256' },
        { name: 'feeCollector', type: 'address' },
      ],
    },
    primaryType: 'TrailsIntent',
    message: {
      user: f.user ?? wallet.address,
      token: f.token,
      amount: f.amount,
      intentAddress: f.intentAddress,
      deadline: BigInt(f.deadline),
      chainId: BigInt(f.chainId),
      nonce: BigInt(f.nonce),
      feeAmount: f.feeAmount,
      feeCollector: f.feeCollector,
    },
  });
}

async function tokenDomain(chain: TestDevnetChain) {
  const token = chain.entry.tokens.USDC!;
  const [, name, version] = await chain.publicClient.readContract({
    address: token,
    abi: devUsdcAbi,
    functionName: 'eip712Domain',
  });
  return { name, version, chainId: chain.entry.chainId, verifyingContract: token };
}

/** EIP-2612 permit with the origin intent account as the spender. */
export async function signPermit(
  chain: TestDevnetChain,
  wallet: PrivateKeyAccount,
  p: { spender: Address; value: bigint; deadline: number },
): Promise<Hex> {
  const nonce = await chain.publicClient.readContract({
    address: chain.entry.tokens.USDC!,
    abi: devUsdcAbi,
    functionName: 'nonces',
    args: [wallet.address],
  });
  return wallet.signTypedData({
    domain: await tokenDomain(chain),
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: {
      owner: wallet.address,
      spender: p.spender,
      value: p.value,
      nonce,
      deadline: BigInt(p.deadline),
    },
  });
}

/** EIP-3009 ReceiveWithAuthorization to the origin account: validAfter 0, nonce keccak256(intentId ‖ "deposit"). */
export async function signReceiveAuthorization(
  chain: TestDevnetChain,
  wallet: PrivateKeyAccount,
  p: { to: Address; value: bigint; validBefore: number; intentId: Hex },
): Promise<Hex> {
  return wallet.signTypedData({
    domain: await tokenDomain(chain),
    types: {
      ReceiveWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'ReceiveWithAuthorization',
    message: {
      from: wallet.address,
      to: p.to,
      value: p.value,
      validAfter: 0n,
      validBefore: BigInt(p.validBefore),
      nonce: keccak256(concat([p.intentId, toHex('deposit')])),
    },
  });
}
