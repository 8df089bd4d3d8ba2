/**
 * Where webhooks may be sent. A URL is http(s) without credentials; unless the config allows private
 * targets (`webhooks.allowPrivateTargets`, on for the devnet), its host must not be loopback, private,
 * link-local, carrier-grade NAT, multicast or otherwise reserved: an endpoint must not make this service
 * reach into the network it runs in (metadata services, databases, admin ports).
 *
 * Checked when an endpoint is added (the names resolved then) and again at every connection, on the address
 * actually connected to (`guardedLookup`): a name that resolves to a public address at add time and to a
 * private one later (DNS rebinding) is refused then.
 */
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { BlockedWebhookTargetError, InvalidWebhookUrlError, UnresolvableWebhookHostError } from './errors.ts';

/** Ranges that are not the public internet (IANA special-purpose registries); IPv4-mapped IPv6 included. */
const PRIVATE_RANGES: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const privateAddresses = (() => {
  const list = new BlockList();
  for (const [address, prefix, family] of PRIVATE_RANGES) list.addSubnet(address, prefix, family);
  return list;
})();

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return privateAddresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL parsed and checked for its form, and its host if that is an address literal. */
export function checkWebhookUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidWebhookUrlError(text, `'${text}' is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InvalidWebhookUrlError(text, `must be an http:// or https:// URL, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw new InvalidWebhookUrlError(text, 'must not carry credentials (user:password@)');
  const host = hostOf(url);
  if (!allowPrivate && isPrivateAddress(host)) throw new BlockedWebhookTargetError(host, host);
  return url;
}

/** Resolves the URL's host (add time) and refuses it if any of its addresses is private. */
export async function checkWebhookTarget(text: string, allowPrivate: boolean): Promise<URL> {
  const url = checkWebhookUrl(text, allowPrivate);
  if (allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host) !== 0) return url;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch (error) {
    throw new UnresolvableWebhookHostError(host, error);
  }
  const blocked = addresses.find((a) => isPrivateAddress(a.address));
  if (blocked) throw new BlockedWebhookTargetError(host, blocked.address);
  return url;
}

/**
 * A `lookup` for http.request that refuses private addresses: the check is on the addresses the socket
 * will connect to. (Node does not call it for an address literal; checkWebhookUrl covers those.)
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction | undefined {
  if (allowPrivate) return undefined;
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const blocked = list.find((a) => isPrivateAddress(a.address));
      if (blocked) return callback(new BlockedWebhookTargetError(hostname, blocked.address), '', 0);
      if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new UnresolvableWebhookHostError(hostname, 'no address'), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
