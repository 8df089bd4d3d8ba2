/**
 * Deployment through the deterministic CREATE2 deployer (Arachnid's proxy at 0x4e59…956C), so a contract with
 * the same initcode and salt lands at the same address on every chain.
 */
import {
  type Account,
  type Address,
  type Chain,
  concat,
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
/** The deployer's runtime code (anvil has it at genesis; other chains got it from a presigned transaction). */
export const CREATE2_DEPLOYER_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
/** Receipts on local chains arrive within milliseconds; poll often instead of viem's 4 s default. */
export const RECEIPT_POLLING_INTERVAL_MS = 50;

export type DeployWalletClient = WalletClient<Transport, Chain, Account>;

/** The CREATE2 deployer is missing on a chain that is not anvil (so it cannot be installed for us). */
export class Create2DeployerMissingError extends SwitchyardError {
  override readonly name = 'Create2DeployerMissingError';
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

/** Makes sure the deployer exists; on anvil it is installed with anvil_setCode when absent. */
export async function ensureCreate2Deployer(publicClient: PublicClient): Promise<void> {
  const code = await publicClient.getCode({ address: CREATE2_DEPLOYER });
  if (code && code !== '0x') return;
  try {
    await publicClient.request({
      method: 'anvil_setCode' as 'eth_chainId',
      params: [CREATE2_DEPLOYER, CREATE2_DEPLOYER_CODE] as unknown as undefined,
    });
  } catch (cause) {
    throw new Create2DeployerMissingError(
      `the CREATE2 deployer ${CREATE2_DEPLOYER} has no code on this chain and it is not anvil; deploy it first`,
      { details: { address: CREATE2_DEPLOYER }, cause },
    );
  }
}

/** Deploys `initCode` with `salt` unless code is already there; idempotent. */
export async function deployCreate2(p: {
  publicClient: PublicClient;
  walletClient: DeployWalletClient;
  salt: Hex;
  initCode: Hex;
}): Promise<{ address: Address; deployed: boolean }> {
  const address = create2Address(p.salt, p.initCode);
  const existing = await p.publicClient.getCode({ address });
  if (existing && existing !== '0x') return { address, deployed: false };
  const hash = await p.walletClient.sendTransaction({
    to: CREATE2_DEPLOYER,
    data: concat([p.salt, p.initCode]),
  });
  const receipt = await p.publicClient.waitForTransactionReceipt({
    hash,
    pollingInterval: RECEIPT_POLLING_INTERVAL_MS,
  });
  const code = await p.publicClient.getCode({ address });
  if (receipt.status !== 'success' || !code || code === '0x') {
    throw new DeploymentFailedError(`CREATE2 deployment to ${address} failed`, {
      details: { address, transactionHash: hash, status: receipt.status },
    });
  }
  return { address, deployed: true };
}
