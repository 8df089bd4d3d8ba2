/**
 * `authData` for gasless deposits (IntentAccount.execute). The first ABI word is the kind:
 * 0 none; 1 EIP-2612 permit(owner → spender = the intent account, value = depositAmount);
 * 2 EIP-3009 receiveWithAuthorization(from = owner, to = the intent account, value = depositAmount).
 */
import { type Address, concat, encodeAbiParameters, type Hex, keccak256, parseSignature, toHex } from 'viem';

export const AuthKind = { None: 0, Permit: 1, ReceiveWithAuthorization: 2 } as const;

function splitSignature(signature: Hex): { v: number; r: Hex; s: Hex } {
  const sig = parseSignature(signature);
  const v = sig.v !== undefined ? Number(sig.v) : 27 + (sig.yParity ?? 0);
  return { v, r: sig.r, s: sig.s };
}

/** authData for an EIP-2612 permit signed by the owner with spender = the intent account. */
export function encodePermitAuthData(p: { deadline: bigint; signature: Hex }): Hex {
  const { v, r, s } = splitSignature(p.signature);
  return encodeAbiParameters(
    [{ type: 'uint8' }, { type: 'uint256' }, { type: 'uint8' }, { type: 'bytes32' }, { type: 'bytes32' }],
    [AuthKind.Permit, p.deadline, v, r, s],
  );
}

/** authData for an EIP-3009 ReceiveWithAuthorization signed by the owner with to = the intent account. */
export function encodeReceiveAuthData(p: {
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
  signature: Hex;
}): Hex {
  const { v, r, s } = splitSignature(p.signature);
  return encodeAbiParameters(
    [
      { type: 'uint8' },
      { type: 'uint256' },
      { type: 'uint256' },
      { type: 'bytes32' },
      { type: 'uint8' },
      { type: 'bytes32' },
      { type: 'bytes32' },
    ],
    [AuthKind.ReceiveWithAuthorization, p.validAfter, p.validBefore, p.nonce, v, r, s],
  );
}

/** The EIP-3009 nonce of an intent's deposit: keccak256(intentHash ‖ "deposit"), unique per intent. */
export function depositAuthorizationNonce(intentHash: Hex): Hex {
  return keccak256(concat([intentHash, toHex('deposit')]));
}

/** Typed data for the owner's EIP-2612 permit (spender = the intent account). */
export function permitTypedData(p: {
  token: Address;
  tokenName: string;
  chainId: bigint;
  owner: Address;
  account: Address;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}) {
  return {
    domain: { name: p.tokenName, version: '1', chainId: p.chainId, verifyingContract: p.token },
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
    message: { owner: p.owner, spender: p.account, value: p.value, nonce: p.nonce, deadline: p.deadline },
  } as const;
}

/** Typed data for the owner's EIP-3009 ReceiveWithAuthorization (to = the intent account). */
export function receiveWithAuthorizationTypedData(p: {
  token: Address;
  tokenName: string;
  chainId: bigint;
  owner: Address;
  account: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}) {
  return {
    domain: { name: p.tokenName, version: '1', chainId: p.chainId, verifyingContract: p.token },
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
      from: p.owner,
      to: p.account,
      value: p.value,
      validAfter: p.validAfter,
      validBefore: p.validBefore,
      nonce: p.nonce,
    },
  } as const;
}
