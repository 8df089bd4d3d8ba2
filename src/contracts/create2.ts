/**
 * Deployment through the deterministic CREATE2 deployer (Arachnid's proxy at 0x4e59…956C), so a contract with
 * the same initcode and salt lands at the same address on every chain.
 */
import {
  type Account,
  type Address,
  type Chain,
  concat,
  formatEther,
  getContractAddress,
  type Hex,
  keccak256,
  type PublicClient,
  type Transport,
  toBytes,
  type WalletClient,
} from 'viem';
import { SwitchyardError } from '../internal/errors.ts';

export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
/** The deployer's runtime code (anvil has it at genesis; other chains got it from the presigned transaction). */
export const CREATE2_DEPLOYER_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
/**
 * How the deployer gets onto a chain that lacks it (github.com/Arachnid/deterministic-deployment-proxy): a
 * one-time account, whose key nobody knows, signed this pre-EIP-155 transaction (no chain id, so it is valid
 * on every chain); funded with `CREATE2_INSTALL_FUNDING_WEI` it creates the deployer at CREATE2_DEPLOYER.
 */
export const CREATE2_INSTALL_SIGNER: Address = '0x3fAB184622Dc19b6109349B94811493BF2a45362';
export const CREATE2_INSTALL_TRANSACTION: Hex =
  '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222';
/** The presigned transaction's gas limit (100,000) times its gas price (100 gwei): 0.01 ETH. */
export const CREATE2_INSTALL_FUNDING_WEI = 10_000_000_000_000_000n;

export type DeployWalletClient = WalletClient<Transport, Chain, Account>;

/** The CREATE2 deployer has no code on a chain; the message says how it is installed. */
export class Create2DeployerMissingError extends SwitchyardError {
  override readonly name = 'Create2DeployerMissingError';
  constructor(readonly chainId: number) {
    super(
      `chain ${chainId}: the CREATE2 deployer ${CREATE2_DEPLOYER} has no code. Install it once (anyone can, ` +
        `and it lands at that address on every chain): send ${formatEther(CREATE2_INSTALL_FUNDING_WEI)} of the ` +
        `native currency to ${CREATE2_INSTALL_SIGNER}, then broadcast the presigned transaction from ` +
        'github.com/Arachnid/deterministic-deployment-proxy with eth_sendRawTransaction (docs/operations.md, ' +
        '"When the CREATE2 deployer is missing"). A node that refuses transactions without a chain id ' +
        "(pre-EIP-155) cannot take it: ask the chain's operators to add the deployer",
      { details: { chainId, deployer: CREATE2_DEPLOYER, signer: CREATE2_INSTALL_SIGNER } },
    );
  }
}

/** A deployment transaction was mined but no code appeared at the expected address. */
export class DeploymentFailedError extends SwitchyardError {
  override readonly name = 'DeploymentFailedError';
}

/** Fixed salt per contract name and format version: the address never depends on who deploys. */
export function switchyardSalt(name: string): Hex {
  return keccak256(toBytes(`switchyard.v1.${name}`));
}

export function create2Address(salt: Hex, initCode: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt, bytecode: initCode });
}

/** Stops with Create2DeployerMissingError when the chain has no CREATE2 deployer. */
export async function ensureCreate2Deployer(publicClient: PublicClient): Promise<void> {
  const code = await publicClient.getCode({ address: CREATE2_DEPLOYER });
  if (code && code !== '0x') return;
  throw new Create2DeployerMissingError(await publicClient.getChainId());
}

/** Deploys `initCode` with `salt` unless code is already there; idempotent. */
export async function deployCreate2(p: {
  publicClient: PublicClient;
  walletClient: DeployWalletClient;
  salt: Hex;
  initCode: Hex;
}): Promise<{ address: Address; deployed: boolean; transactionHash?: Hex }> {
  const address = create2Address(p.salt, p.initCode);
  const existing = await p.publicClient.getCode({ address });
  if (existing && existing !== '0x') return { address, deployed: false };
  const hash = await p.walletClient.sendTransaction({
    to: CREATE2_DEPLOYER,
    data: concat([p.salt, p.initCode]),
  });
  const receipt = await p.publicClient.waitForTransactionReceipt({ hash });
  const code = await p.publicClient.getCode({ address });
  if (receipt.status !== 'success' || !code || code === '0x') {
    throw new DeploymentFailedError(`CREATE2 deployment to ${address} failed`, {
      details: { address, transactionHash: hash, status: receipt.status },
    });
  }
  return { address, deployed: true, transactionHash: hash };
}
