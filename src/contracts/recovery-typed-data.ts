/**
 * The EIP-712 typed data an intent's owner signs to recover a balance from its account
 * (IntentAccount.recover). The domain is the account's own on the chain where the balance sits, so a
 * signature moves nothing from another intent's account or on another chain; the nonce makes it good once.
 */
import { type Address, type Hex, hashTypedData } from 'viem';
import type { Recovery } from './types.ts';

/** The account's EIP-712 name and version (IntentAccount's EIP712 constructor). */
export const RECOVERY_DOMAIN_NAME = 'Switchyard IntentAccount';
export const RECOVERY_DOMAIN_VERSION = '1';

export const RECOVERY_TYPES = {
  Recovery: [
    { name: 'token', type: 'address' },
    { name: 'recipient', type: 'address' },
    { name: 'cancelIntent', type: 'bool' },
    { name: 'maxFee', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

export function recoveryTypedData(p: { chainId: bigint; account: Address; recovery: Recovery }) {
  return {
    domain: {
      name: RECOVERY_DOMAIN_NAME,
      version: RECOVERY_DOMAIN_VERSION,
      chainId: p.chainId,
      verifyingContract: p.account,
    },
    types: RECOVERY_TYPES,
    primaryType: 'Recovery',
    message: p.recovery,
  } as const;
}

/** The digest the owner signs (equal to the account's `recoveryDigest(recovery)`). */
export function recoveryDigest(p: { chainId: bigint; account: Address; recovery: Recovery }): Hex {
  return hashTypedData(recoveryTypedData(p));
}
