/**
 * The owner's consent to a gasless deposit, in the official client's shape: EIP-712 domain
 * `TrailsIntentEntrypoint` / "1" / the origin chain / the entrypoint (Switchyard's IntentFactory, which
 * GetTrailsContracts and `intent.trailsContracts` advertise as `trailsIntentEntrypointAddress`).
 */
import type { Address } from 'viem';

export interface TrailsIntentFields {
  /** The origin chain: both the domain's and the struct's chain id. */
  chainId: bigint;
  entrypoint: Address;
  user: Address;
  token: Address;
  amount: bigint;
  intentAddress: Address;
  deadline: bigint;
  nonce: bigint;
  feeAmount: bigint;
  feeCollector: Address;
}

export const TRAILS_INTENT_TYPES = {
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
} as const;

export function trailsIntentTypedData(f: TrailsIntentFields) {
  return {
    domain: {
      name: 'TrailsIntentEntrypoint',
      version: '1',
      chainId: f.chainId,
      verifyingContract: f.entrypoint,
    },
    types: TRAILS_INTENT_TYPES,
    primaryType: 'TrailsIntent',
    message: {
      user: f.user,
      token: f.token,
      amount: f.amount,
      intentAddress: f.intentAddress,
      deadline: f.deadline,
      chainId: f.chainId,
      nonce: f.nonce,
      feeAmount: f.feeAmount,
      feeCollector: f.feeCollector,
    },
  } as const;
}
