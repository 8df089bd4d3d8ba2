/**
 * Marks a chain whose setup finished, for one exact deployment. The mark is code at a fixed address,
 * written with anvil_setCode, so it lives in the chain state itself: it is saved and lost together
 * with what it vouches for, and a half-finished setup (hard kill mid-way) is resumed instead of
 * skipped. Its content is a digest of every deployed address: when a contract changes (new bytecode,
 * new CREATE2 address), the saved state no longer matches and the chain is seeded and funded again.
 */
import { type Address, getAddress, type Hex, keccak256, slice, stringToHex } from 'viem';
import type { DevnetChainClients } from './chain-clients.ts';

/** Bump when setup changes in a way that old chain states must not be reused (they get set up again). */
const SETUP_VERSION = 1;

export const SETUP_MARKER_ADDRESS: Address = getAddress(
  slice(keccak256(stringToHex('switchyard.devnet.setup-complete')), 12),
);

export type SetupState = 'none' | 'current' | 'outdated';

/** The digest of one deployment: the setup version and every name → address, in a stable order. */
export function deploymentDigest(addresses: Record<string, Address | undefined>): Hex {
  const entries = Object.entries(addresses).sort(([a], [b]) => a.localeCompare(b));
  return keccak256(stringToHex(JSON.stringify({ version: SETUP_VERSION, entries })));
}

export async function readSetupState(clients: DevnetChainClients, digest: Hex): Promise<SetupState> {
  const code = await clients.publicClient.getCode({ address: SETUP_MARKER_ADDRESS });
  if (code === undefined || code === '0x') return 'none';
  return code === digest ? 'current' : 'outdated';
}

/** Whether any setup ever finished on this chain (before the deployment is known). */
export async function hasSetupMarker(clients: DevnetChainClients): Promise<boolean> {
  const code = await clients.publicClient.getCode({ address: SETUP_MARKER_ADDRESS });
  return code !== undefined && code !== '0x';
}

export async function markSetupComplete(clients: DevnetChainClients, digest: Hex): Promise<void> {
  await clients.testClient.setCode({ address: SETUP_MARKER_ADDRESS, bytecode: digest });
}
