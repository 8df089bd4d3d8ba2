/**
 * Ports that `fetch` refuses to connect to ("bad port"). Node's fetch follows the WHATWG Fetch
 * standard's port blocklist, and viem's http transport, the official client and browsers all use
 * fetch: a chain RPC or an API listening on one of these ports is unreachable for them, whatever
 * answers there. Only 10080 lies above 10000, the range devnets and tests pick from.
 */
const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Whether fetch refuses `port`. */
export function fetchRefusesPort(port: number): boolean {
  return FETCH_BLOCKED_PORTS.has(port);
}

/** The first port of base .. base + count - 1 that fetch refuses, if any. */
export function fetchRefusedPortIn(base: number, count: number): number | undefined {
  for (let port = base; port < base + count; port++) if (fetchRefusesPort(port)) return port;
  return undefined;
}
