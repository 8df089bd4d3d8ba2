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

/**
 * What both standards' signatures have in common: the owner lets the intent account take `value` of
 * `token`, under the token's own EIP-712 domain.
 */
export interface DepositAuthorization {
  token: Address;
  tokenName: string;
  chainId: bigint;
  owner: Address;
  account: Address;
  value: bigint;
}

/** EIP-712 domain version of the permit-capable dev tokens (and of USDC's EIP-3009 domain). */
const TOKEN_DOMAIN_VERSION = '1';

/** The token's EIP-712 domain, shared by its permit and its transfer authorizations. */
function tokenDomain(p: DepositAuthorization) {
  return {
    name: p.tokenName,
    version: TOKEN_DOMAIN_VERSION,
    chainId: p.chainId,
    verifyingContract: p.token,
  } as const;
}

/** Typed data for the owner's EIP-2612 permit (spender = the intent account). */
export function permitTypedData(p: DepositAuthorization & { nonce: bigint; deadline: bigint }) {
  return {
    domain: tokenDomain(p),
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
export function receiveWithAuthorizationTypedData(
  p: DepositAuthorization & { validAfter: bigint; validBefore: bigint; nonce: Hex },
) {
  return {
    domain: tokenDomain(p),
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
