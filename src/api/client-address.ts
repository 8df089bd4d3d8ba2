/**
 * The client a failed authentication is counted against: its IPv4 address, or the /64 network of its IPv6
 * address (one subscriber's usual allocation, so rotating through it does not reset the count).
 */
import { isIPv6 } from 'node:net';

/** Hextets of an IPv6 address that name its /64 network. */
const IPV6_NETWORK_HEXTETS = 4;
const IPV6_HEXTETS = 8;
const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

export function clientAddressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, IPV6_NETWORK_HEXTETS).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address, `::` filled in (a trailing dotted IPv4 part counts as two). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const parts = (text: string) => (text === '' ? [] : text.split(':').flatMap(dottedToHextets));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const zeros = Array.from({ length: IPV6_HEXTETS - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((h) => Number.parseInt(h, 16).toString(16));
}

function dottedToHextets(part: string): string[] {
  if (!part.includes('.')) return [part];
  const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
