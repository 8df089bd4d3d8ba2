/**
 * The sockets postgres.js connects through, with Nagle's algorithm off (TCP_NODELAY), as `pg` sets on its
 * own. postgres.js leaves it on, so a statement written while the connection's previous one is still
 * unanswered waits in the kernel until that answer arrives: pipelined statements reach the backend one per
 * wake-up instead of together, and each waits for the one before it (docs/benchmarks.md, "Postgres against
 * SQLite").
 *
 * postgres.js calls `socket(options)` for each connection it opens and starts talking at once. The socket
 * is returned while it connects: Node holds what is written until the connection is made, and a refused or
 * lost connection reaches postgres.js as the socket's own 'error' and 'close', which it answers as for the
 * sockets it makes itself (the connection fails its queries and is opened again on next use; its
 * `connect_timeout` still applies).
 */
import net from 'node:net';

/** What postgres.js passes to its `socket` option: the parsed connection target. */
export interface SocketTarget {
  host: readonly string[];
  port: readonly number[];
  /** A Unix socket path (a host that is a directory); Nagle's algorithm does not apply there. */
  path?: string | false;
}

/** Postgres's port when the target names none. */
const DEFAULT_PORT = 5432;

/** A `socket` factory for postgres.js: the target's hosts in turn, one per call, as postgres.js does. */
export function createNoDelaySockets(): (target: SocketTarget) => net.Socket {
  let next = 0;
  return (target) => {
    if (target.path) return net.connect(target.path);
    const index = next++ % Math.max(1, target.host.length);
    const host = target.host[index];
    const port = target.port[index] ?? DEFAULT_PORT;
    // postgres.js names a lost connection's host and port in its error from these two fields.
    return Object.assign(net.connect({ host, port, noDelay: true }), { host, port });
  };
}
