/**
 * The recovery payload on the wire: PrepareIntentRecovery answers it, the owner signs its typed data, and
 * BuildIntentRecoveryTransaction takes it back. Every member is checked on the way back in, each refusal
 * naming it (`payload.nonce`); uint256 members travel as decimal strings.
 */
import { type Address, getAddress, type Hex, isAddress } from 'viem';
import { recoveryTypedData } from '../../contracts/recovery-typed-data.ts';
import type { Recovery } from '../../contracts/types.ts';
import { RecoveryInputError } from './errors.ts';
import { RECOVERY_PAYLOAD_KIND, type RecoveryPayload } from './types.ts';

const UINT256_DECIMAL = /^[0-9]{1,78}$/;
const MAX_UINT256 = 2n ** 256n - 1n;

export function toPayload(chainId: number, intentAddress: Address, recovery: Recovery): RecoveryPayload {
  return {
    kind: RECOVERY_PAYLOAD_KIND,
    chainId,
    intentAddress,
    token: recovery.token,
    recipient: recovery.recipient,
    cancelIntent: recovery.cancelIntent,
    maxFee: recovery.maxFee.toString(),
    nonce: recovery.nonce.toString(),
    deadline: recovery.deadline.toString(),
  };
}

export function recoveryOf(payload: RecoveryPayload): Recovery {
  return {
    token: payload.token,
    recipient: payload.recipient,
    cancelIntent: payload.cancelIntent,
    maxFee: BigInt(payload.maxFee),
    nonce: BigInt(payload.nonce),
    deadline: BigInt(payload.deadline),
  };
}

/** The typed data as JSON for eth_signTypedData_v4 (uint256 as decimal strings), with its EIP712Domain type. */
export function typedDataJson(payload: RecoveryPayload): Record<string, unknown> {
  const typed = recoveryTypedData({
    chainId: BigInt(payload.chainId),
    account: payload.intentAddress,
    recovery: recoveryOf(payload),
  });
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      ...typed.types,
    },
    primaryType: typed.primaryType,
    domain: { ...typed.domain, chainId: payload.chainId },
    message: {
      token: payload.token,
      recipient: payload.recipient,
      cancelIntent: payload.cancelIntent,
      maxFee: payload.maxFee,
      nonce: payload.nonce,
      deadline: payload.deadline,
    },
  };
}

/** The payload as the caller sent it back, every member checked. */
export function parsePayload(value: unknown): RecoveryPayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecoveryInputError('payload', 'must be the payload object PrepareIntentRecovery answered');
  }
  const p = value as Record<string, unknown>;
  if (p.kind !== RECOVERY_PAYLOAD_KIND) {
    throw new RecoveryInputError('payload.kind', `must be "${RECOVERY_PAYLOAD_KIND}"`);
  }
  if (typeof p.chainId !== 'number' || !Number.isSafeInteger(p.chainId) || p.chainId <= 0) {
    throw new RecoveryInputError('payload.chainId', 'must be a positive integer chain id');
  }
  if (typeof p.cancelIntent !== 'boolean') {
    throw new RecoveryInputError('payload.cancelIntent', 'must be true or false');
  }
  return {
    kind: RECOVERY_PAYLOAD_KIND,
    chainId: p.chainId,
    intentAddress: address(p, 'intentAddress'),
    token: address(p, 'token'),
    recipient: address(p, 'recipient'),
    cancelIntent: p.cancelIntent,
    maxFee: uint256(p, 'maxFee'),
    nonce: uint256(p, 'nonce'),
    deadline: uint256(p, 'deadline'),
  };
}

function address(p: Record<string, unknown>, member: string): Address {
  const value = p[member];
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
    throw new RecoveryInputError(`payload.${member}`, 'must be a 20-byte hex address');
  }
  return getAddress(value);
}

function uint256(p: Record<string, unknown>, member: string): string {
  const value = p[member];
  if (typeof value !== 'string' || !UINT256_DECIMAL.test(value) || BigInt(value) > MAX_UINT256) {
    throw new RecoveryInputError(
      `payload.${member}`,
      'must be an unsigned 256-bit integer as a decimal string',
    );
  }
  return BigInt(value).toString();
}

/** r, s, v: what an EOA owner's wallet produces. */
const SIGNATURE_HEX = /^0x([0-9a-fA-F]{2})+$/;

export function parseSignature(signature: string): Hex {
  if (!SIGNATURE_HEX.test(signature)) {
    throw new RecoveryInputError('signature', 'must be the owner’s signature as 0x-prefixed hex bytes');
  }
  return signature as Hex;
}
