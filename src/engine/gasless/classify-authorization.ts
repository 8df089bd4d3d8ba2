/**
 * Which deposit authorization a `permitSignature` is. The wire DepositSignature has one slot for it, so
 * an EIP-3009 ReceiveWithAuthorization travels there too, with fixed parameters the owner can compute:
 * validAfter 0, validBefore = permitDeadline, nonce = keccak256(intentHash ‖ "deposit"). The server
 * tells the two apart by recovery: a signature recovers the owner over at most one of the typed data.
 */
import { type Address, type Hex, isAddressEqual, recoverTypedDataAddress } from 'viem';
import {
  depositAuthorizationNonce,
  permitTypedData,
  receiveWithAuthorizationTypedData,
} from '../../contracts/auth-data.ts';
import type { TokenDomain } from './token-domain.ts';

export interface AuthorizationSubject {
  signature: Hex;
  owner: Address;
  /** The origin intent account: the permit's spender, the authorization's receiver. */
  account: Address;
  token: Address;
  domain: TokenDomain;
  chainId: bigint;
  amount: bigint;
  /** permitDeadline: the permit's deadline or the authorization's validBefore. */
  deadline: bigint;
  intentHash: Hex;
}

/** Recovers `signature` over `typed` and compares with `signer`; a malformed signature is just "no". */
export async function signedBy(
  typed: Parameters<typeof recoverTypedDataAddress>[0],
  signer: Address,
): Promise<boolean> {
  try {
    return isAddressEqual(await recoverTypedDataAddress(typed), signer);
  } catch {
    return false;
  }
}

/** The typed data of the owner's ReceiveWithAuthorization for this intent's deposit. */
export function receiveAuthorizationFor(s: Omit<AuthorizationSubject, 'signature'>) {
  const typed = receiveWithAuthorizationTypedData({
    token: s.token,
    tokenName: s.domain.name,
    chainId: s.chainId,
    owner: s.owner,
    account: s.account,
    value: s.amount,
    validAfter: 0n,
    validBefore: s.deadline,
    nonce: depositAuthorizationNonce(s.intentHash),
  });
  return { ...typed, domain: { ...typed.domain, version: s.domain.version } };
}

/** The typed data of the owner's permit for this intent's deposit at the token nonce `nonce`. */
export function permitFor(s: Omit<AuthorizationSubject, 'signature'>, nonce: bigint) {
  const typed = permitTypedData({
    token: s.token,
    tokenName: s.domain.name,
    chainId: s.chainId,
    owner: s.owner,
    account: s.account,
    value: s.amount,
    nonce,
    deadline: s.deadline,
  });
  return { ...typed, domain: { ...typed.domain, version: s.domain.version } };
}

/** True when the signature is the owner's ReceiveWithAuthorization (else it is taken as a permit). */
export function isReceiveAuthorization(s: AuthorizationSubject): Promise<boolean> {
  return signedBy({ ...receiveAuthorizationFor(s), signature: s.signature }, s.owner);
}
