/**
 * A counting JSON-RPC proxy for the e2e benchmark's `--count-rpc`: the service's chain URLs point at it, it
 * forwards every request to the node unchanged and counts the calls by method (batches count each member).
 * Beside the calls it counts the HTTP exchanges by how many calls each carried, and the calls that travelled
 * alone by method: anvil pays per exchange, so these show which calls missed a batch.
 * Only for counting: the extra hop adds latency, so timed figures come from runs without it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Shutdown } from '../../src/internal/shutdown.ts';

export interface RpcCounter {
  /** The URL to give the service instead of the node's. */
  url: string;
  /** Calls by method since the last reset. */
  counts(): Map<string, number>;
  reset(): void;
  stop(): Promise<void>;
}

/** The key under which the HTTP exchanges are counted beside the calls. */
export const HTTP_EXCHANGES = '(HTTP exchanges)';
/** Exchanges are counted by their number of calls up to this; larger ones share the last line. */
const LARGEST_COUNTED_BATCH = 6;
const SIZE_KEY = '(exchanges of';
const ALONE_KEY = '(alone)';

export async function startRpcCounter(target: string): Promise<RpcCounter> {
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      // One HTTP exchange may carry a batch: anvil pays per exchange as well as per call.
      counts.set(HTTP_EXCHANGES, (counts.get(HTTP_EXCHANGES) ?? 0) + 1);
      try {
        const parsed = JSON.parse(body) as { method?: string } | { method?: string }[];
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
        add(exchangeSizeKey(calls.length));
        if (calls.length === 1) add(`${ALONE_KEY} ${calls[0]?.method ?? '?'}`);
        for (const call of calls) add(call.method ?? '?');
      } catch {
        counts.set('(unparsed)', (counts.get('(unparsed)') ?? 0) + 1);
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        })
        .catch((error: unknown) => {
          res.writeHead(502);
          res.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => new Map(counts),
    reset: () => counts.clear(),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A counting proxy in front of each chain's first RPC URL, in the chains' order, stopped by `shutdown`. */
export async function startRpcCounters(
  chains: readonly { rpcUrls: readonly string[] }[],
  shutdown: Shutdown,
): Promise<RpcCounter[]> {
  const counters: RpcCounter[] = [];
  for (const chain of chains) {
    const counter = await startRpcCounter(chain.rpcUrls[0]!);
    shutdown.add('rpc counter', () => counter.stop());
    counters.push(counter);
  }
  return counters;
}

function exchangeSizeKey(calls: number): string {
  return calls >= LARGEST_COUNTED_BATCH
    ? `(exchanges of ${LARGEST_COUNTED_BATCH}+ calls)`
    : `(exchanges of ${calls})`;
}

/**
 * "method count" lines, most calls first, each count divided by `per` (calls per intent); then the exchanges
 * by size and the calls that went alone.
 */
export function formatCounts(counts: Map<string, number>, per: number): string {
  const line = (label: string, c: number) => `  ${label.padEnd(36)} ${(c / per).toFixed(2)}`;
  const isExchangeKey = (key: string) =>
    key === HTTP_EXCHANGES || key.startsWith(SIZE_KEY) || key.startsWith(ALONE_KEY);
  const methods = [...counts].filter(([key]) => !isExchangeKey(key)).sort((a, b) => b[1] - a[1]);
  const total = methods.reduce((n, [, c]) => n + c, 0);
  const sizes = [...counts]
    .filter(([key]) => key.startsWith(SIZE_KEY))
    .sort(([a], [b]) => a.localeCompare(b));
  const alone = [...counts].filter(([key]) => key.startsWith(ALONE_KEY)).sort((a, b) => b[1] - a[1]);
  return [
    line('total', total),
    line(HTTP_EXCHANGES, counts.get(HTTP_EXCHANGES) ?? 0),
    ...methods.map(([method, c]) => line(method, c)),
    ...sizes.map(([key, c]) => line(key, c)),
    ...alone.map(([key, c]) => line(key, c)),
  ].join('\n');
}
