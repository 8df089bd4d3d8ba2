/**
 * Test harness for contract tests: a real anvil chain with Switchyard's contracts and the dev tokens
 * deployed, viem clients for named roles (anvil's default accounts), and small helpers (send, mint,
 * balances, time warps, revert decoding). Start two with different chain ids for cross-chain tests; always
 * `await chain.stop()` (e.g. in afterAll).
 *
 * Roles and their anvil account index: deployer 0, relayer 1, solver 2, attester 3, user 4,
 * feeCollector 5, stranger 6.
 */
import {
  type Abi,
  type Account,
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  defineChain,
  encodeDeployData,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { type AnvilInstance, startAnvil } from '../../src/chains/anvil.ts';
import * as abis from '../../src/contracts/abis.generated.ts';
import { loadArtifact } from '../../src/contracts/artifacts.ts';
import { deploySwitchyardContracts } from '../../src/contracts/deploy.ts';
import { deployDevToken } from '../../src/contracts/deploy-dev-tokens.ts';
import { withGasMargin } from '../../src/devnet/send-and-wait.ts';
import type { SwitchyardContracts } from '../../src/internal/config-types.ts';

/** anvil's well-known development mnemonic (its default accounts are funded with 10,000 ETH each). */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
/** Local chains answer within milliseconds; viem's default polling is 4 s. */
export const POLLING_INTERVAL_MS = 50;
/** Default settlement grace for tests: short, since tests warp time anyway. */
export const TEST_GRACE_SECONDS = 60n;

export const ROLES = [
  'deployer',
  'relayer',
  'solver',
  'attester',
  'user',
  'feeCollector',
  'stranger',
] as const;
export type Role = (typeof ROLES)[number];

export type TestWalletClient = WalletClient<Transport, Chain, Account>;
export type TestPublicClient = PublicClient<Transport, Chain>;

export interface TestChainOptions {
  chainId: number;
  /** Seconds after an order's fill deadline before refunds open (OriginSettler immutable). */
  graceSeconds?: bigint;
  /** Deploy DevUSDC and DevDAI (default true). */
  devTokens?: boolean;
}

export interface TestChain {
  chainId: number;
  chain: Chain;
  rpcUrl: string;
  publicClient: TestPublicClient;
  testClient: TestClient;
  accounts: Record<Role, Account>;
  wallets: Record<Role, TestWalletClient>;
  contracts: SwitchyardContracts;
  /** Zero addresses when `devTokens: false`. */
  tokens: { usdc: Address; dai: Address };
  /** Sends a transaction from a role and waits for a successful receipt (throws on revert). */
  send(from: Role, tx: { to: Address; data: Hex; value?: bigint; gas?: bigint }): Promise<TransactionReceipt>;
  /** Deploys a compiled artifact (plain CREATE) from the deployer; returns its address. */
  deploy(name: string, args?: readonly unknown[]): Promise<Address>;
  /** Mints a dev token (open faucet). */
  mint(token: Address, to: Address, amount: bigint): Promise<void>;
  /** ERC-20 balance, or native when `token` is the zero address. */
  balanceOf(token: Address, holder: Address): Promise<bigint>;
  /** Timestamp of the latest block. */
  now(): Promise<bigint>;
  /** Moves the chain clock forward and mines a block so the new time is visible. */
  increaseTime(seconds: bigint): Promise<void>;
  stop(): Promise<void>;
}

const ZERO: Address = '0x0000000000000000000000000000000000000000';

export async function startTestChain(options: TestChainOptions): Promise<TestChain> {
  const anvil = await startAnvil({ chainId: options.chainId });
  try {
    return await buildTestChain(anvil, options);
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function buildTestChain(anvil: AnvilInstance, options: TestChainOptions): Promise<TestChain> {
  const chain = defineChain({
    id: options.chainId,
    name: `anvil-${options.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const transport = http(anvil.rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: POLLING_INTERVAL_MS });
  const testClient = createTestClient({
    chain,
    transport,
    mode: 'anvil',
    pollingInterval: POLLING_INTERVAL_MS,
  });
  const accounts = byRole<Account>((_, index) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index }));
  const wallets = byRole<TestWalletClient>((role) =>
    createWalletClient({ chain, transport, account: accounts[role], pollingInterval: POLLING_INTERVAL_MS }),
  );

  const deployerClients = { publicClient, walletClient: wallets.deployer };
  const contracts = await deploySwitchyardContracts({
    ...deployerClients,
    attester: accounts.attester.address,
    graceSeconds: options.graceSeconds ?? TEST_GRACE_SECONDS,
  });
  const withTokens = options.devTokens ?? true;
  const tokens = {
    usdc: withTokens ? await deployDevToken({ ...deployerClients, name: 'DevUSDC' }) : ZERO,
    dai: withTokens ? await deployDevToken({ ...deployerClients, name: 'DevDAI' }) : ZERO,
  };

  const send: TestChain['send'] = async (from, tx) => {
    // With the devnet's margin: a swap or vault call estimated in one second and mined in the next needs more
    // gas than the bare estimate viem would use (docs/devnet.md "Gas estimates need a margin").
    const gas = tx.gas ?? withGasMargin(await publicClient.estimateGas({ account: accounts[from], ...tx }));
    const hash = await wallets[from].sendTransaction({ ...tx, gas });
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: POLLING_INTERVAL_MS,
    });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} from ${from} reverted`);
    return receipt;
  };

  return {
    chainId: options.chainId,
    chain,
    rpcUrl: anvil.rpcUrl,
    publicClient,
    testClient,
    accounts,
    wallets,
    contracts,
    tokens,
    send,
    async deploy(name, args = []) {
      const artifact = loadArtifact(name);
      const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
      const hash = await wallets.deployer.sendTransaction({ data });
      const receipt = await publicClient.waitForTransactionReceipt({
        hash,
        pollingInterval: POLLING_INTERVAL_MS,
      });
      if (!receipt.contractAddress) throw new Error(`deploying ${name} failed`);
      return receipt.contractAddress;
    },
    async mint(token, to, amount) {
      const hash = await wallets.deployer.writeContract({
        address: token,
        abi: abis.devUsdcAbi,
        functionName: 'mint',
        args: [to, amount],
      });
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: POLLING_INTERVAL_MS });
    },
    async balanceOf(token, holder) {
      if (token === ZERO) return publicClient.getBalance({ address: holder });
      return publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [holder],
      });
    },
    async now() {
      return (await publicClient.getBlock()).timestamp;
    },
    async increaseTime(seconds) {
      await testClient.increaseTime({ seconds: Number(seconds) });
      await testClient.mine({ blocks: 1 });
    },
    stop: () => anvil.stop(),
  };
}

function byRole<T>(make: (role: Role, index: number) => T): Record<Role, T> {
  const out = {} as Record<Role, T>;
  ROLES.forEach((role, index) => {
    out[role] = make(role, index);
  });
  return out;
}

/** Every error of every Switchyard contract, for decoding reverts. */
const ALL_ERRORS: Abi = Object.values(abis)
  .flatMap((abi) => abi as Abi)
  .filter((item) => item.type === 'error');

/** The custom error a failed call reverted with ({ errorName, args }), or undefined when there is none. */
export function decodeRevert(error: unknown): { errorName: string; args: readonly unknown[] } | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
    return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
  }
  // Errors raised by another contract than the one called (e.g. the account behind the factory) come raw.
  const raw =
    reverted instanceof ContractFunctionRevertedError && reverted.raw
      ? reverted.raw
      : (error.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null)
          ?.data;
  if (!raw) return undefined;
  try {
    const decoded = decodeErrorResult({ abi: ALL_ERRORS, data: raw });
    return { errorName: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return undefined;
  }
}

/** Awaits `promise`, expects it to fail with the custom error `errorName`, and returns that error's args. */
export async function expectRevert(
  promise: Promise<unknown>,
  errorName: string,
): Promise<readonly unknown[]> {
  try {
    await promise;
  } catch (error) {
    const decoded = decodeRevert(error);
    if (decoded?.errorName === errorName) return decoded.args;
    throw new Error(`expected revert ${errorName}, got ${decoded?.errorName ?? String(error)}`);
  }
  throw new Error(`expected revert ${errorName}, but the call succeeded`);
}
