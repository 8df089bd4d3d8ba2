/**
 * The EIP-712 digest of a fill attestation: what `signTypedData(fillAttestationTypedData(a))` signs. viem's
 * hashTypedData validates and ABI-encodes the domain and the message with its generic encoder on every call;
 * here the type hash is computed once and each verifier's domain separator once per digest function, and the
 * message's six static words are laid out directly and hashed with our keccak256. The attester signs one per
 * intent. fill-attestation-digest.test.ts compares it with hashTypedData.
 */
import { type Address, type Hex, hashDomain, toHex } from 'viem';
import { keccak256 } from '../internal/keccak256.ts';
import {
  FILL_ATTESTATION_DOMAIN_NAME,
  FILL_ATTESTATION_DOMAIN_VERSION,
  type FillAttestation,
  fillAttestationTypes,
} from './attestation.ts';

const WORD_HEX = 64;
const MAX_UINT256 = 2n ** 256n;
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
const BYTES32_PATTERN = /^0x[0-9a-fA-F]{64}$/;
/** EIP-712's prefix of the signed digest: 0x19 0x01, then the domain separator and the struct hash. */
const EIP712_PREFIX = '0x1901';
const DOMAIN_TYPES = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

/** Digests of fill attestations; the domain separators it has computed are kept by (chain, verifier). */
export function createFillAttestationDigest(): (attestation: FillAttestation) => Hex {
  // EIP-712 encodeType of a struct that references no other struct: Name(type name,…).
  const fields = fillAttestationTypes.FillAttestation.map((f) => `${f.type} ${f.name}`).join(',');
  const typeHash = keccak256(toHex(`FillAttestation(${fields})`));
  // Keyed by the configured origin chains' verifiers: a handful of entries for the life of the process.
  const domains = new Map<string, string>();
  const domainSeparator = (chainId: bigint, verifier: string) => {
    const key = `${chainId}:${verifier.toLowerCase()}`;
    let separator = domains.get(key);
    if (!separator) {
      separator = hashDomain({
        domain: {
          name: FILL_ATTESTATION_DOMAIN_NAME,
          version: FILL_ATTESTATION_DOMAIN_VERSION,
          chainId,
          verifyingContract: address(verifier, 'verifier') as Address,
        },
        types: { EIP712Domain: DOMAIN_TYPES },
      }).slice(2);
      domains.set(key, separator);
    }
    return separator;
  };
  return (a) => {
    const struct = keccak256(
      `${typeHash}${uint(a.originChainId, 'originChainId')}${uint(a.destChainId, 'destChainId')}${addressWord(a.destSettler, 'destSettler')}${bytes32(a.orderId)}${addressWord(a.filler, 'filler')}${addressWord(a.repaymentAddr, 'repaymentAddr')}`,
    );
    return keccak256(`${EIP712_PREFIX}${domainSeparator(a.originChainId, a.verifier)}${struct.slice(2)}`);
  };
}

function uint(value: bigint, name: string): string {
  if (value < 0n || value >= MAX_UINT256) throw new RangeError(`${name} ${value} does not fit uint256`);
  return value.toString(16).padStart(WORD_HEX, '0');
}

function address<T extends string>(value: T, name: string): T {
  if (!ADDRESS_PATTERN.test(value)) throw new TypeError(`${name} is not an address: ${value}`);
  return value;
}

function addressWord(value: string, name: string): string {
  return address(value, name).slice(2).toLowerCase().padStart(WORD_HEX, '0');
}

function bytes32(value: string): string {
  if (!BYTES32_PATTERN.test(value)) throw new TypeError(`orderId is not 32 bytes: ${value}`);
  return value.slice(2).toLowerCase();
}
