/**
 * A counting JSON-RPC proxy for the e2e benchmark's `--count-rpc`: the service's chain URLs point at it, it
 * forwards every request to the node unchanged and counts the calls by method (batches count each member).
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
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          const method = call.method ?? '?';
          counts.set(method, (counts.get(method) ?? 0) + 1);
        }
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

/** "method count" lines, most calls first, each count divided by `per` (calls per intent). */
export function formatCounts(counts: Map<string, number>, per: number): string {
  const exchanges = counts.get(HTTP_EXCHANGES) ?? 0;
  const sorted = [...counts].filter(([key]) => key !== HTTP_EXCHANGES).sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((n, [, c]) => n + c, 0);
  const line = (label: string, c: number) => `  ${label.padEnd(28)} ${(c / per).toFixed(2)}`;
  const methods = sorted.map(([method, c]) => line(method, c));
  return [line('total', total), line(HTTP_EXCHANGES, exchanges), ...methods].join('\n');
}
