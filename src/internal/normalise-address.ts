/**
 * An address as a caller may write it: `0x` and 40 hex digits in any letter case (EIP-55 is a typing aid,
 * not part of the address). Lower case and a correct checksum are kept as given; any other mix (all upper
 * case, a mixed case whose checksum is wrong) becomes the checksummed form, so every address past the API
 * boundary is one viem accepts strictly and compares equal, case-insensitively, to the same account.
 */
import type { Address } from 'viem';
import { getAddress, isAddress } from 'viem/utils';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The address in the form the service uses, or undefined when `text` is not 20 bytes of 0x-prefixed hex. */
export function normaliseAddress(text: string): Address | undefined {
  if (!HEX_ADDRESS.test(text)) return undefined;
  return isAddress(text, { strict: true }) ? text : getAddress(text);
}
