/**
 * The EIP-712 fill attestation the attester signs and AttestedFillVerifier checks. The domain is the verifier
 * on the origin chain, so a signature counts for one origin chain and one verifier only.
 */
import type { Address, Hex } from 'viem';

/** Must match AttestedFillVerifier's EIP712 constructor arguments. */
export const FILL_ATTESTATION_DOMAIN_NAME = 'Switchyard Fill Attestation';
export const FILL_ATTESTATION_DOMAIN_VERSION = '1';

export const fillAttestationTypes = {
  FillAttestation: [
    { name: 'originChainId', type: 'uint256' },
    { name: 'destChainId', type: 'uint256' },
    { name: 'destSettler', type: 'address' },
    { name: 'orderId', type: 'bytes32' },
    { name: 'filler', type: 'address' },
    { name: 'repaymentAddr', type: 'address' },
  ],
} as const;

export interface FillAttestation {
  /** The AttestedFillVerifier on the origin chain. */
  verifier: Address;
  originChainId: bigint;
  destChainId: bigint;
  destSettler: Address;
  orderId: Hex;
  filler: Address;
  repaymentAddr: Address;
}

/** Typed data for `walletClient.signTypedData` / `account.signTypedData`. */
export function fillAttestationTypedData(a: FillAttestation) {
  return {
    domain: {
      name: FILL_ATTESTATION_DOMAIN_NAME,
      version: FILL_ATTESTATION_DOMAIN_VERSION,
      chainId: a.originChainId,
      verifyingContract: a.verifier,
    },
    types: fillAttestationTypes,
    primaryType: 'FillAttestation',
    message: {
      originChainId: a.originChainId,
      destChainId: a.destChainId,
      destSettler: a.destSettler,
      orderId: a.orderId,
      filler: a.filler,
      repaymentAddr: a.repaymentAddr,
    },
  } as const;
}
