/**
 * A loopback JSON-RPC proxy in front of one anvil chain, switchable at run time:
 * - `pass`: forwards every request;
 * - `slow`: forwards after `delayMs`;
 * - `error`: answers HTTP 503 without forwarding;
 * - `answer`: answers one JSON-RPC method itself with `result` (single requests, not batches) and forwards
 *   the rest: a node state that cannot be brought about on demand, such as anvil holding a transaction
 *   unmined while it automines.
 * A node that is down is not simulated here: test/harness/devnet.ts stops and restarts the real anvil.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type ProxyMode =
  | { kind: 'pass' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'error' }
  | { kind: 'answer'; method: string; result: unknown };

export interface RpcProxy {
  url: string;
  setMode(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string, port: number): Promise<RpcProxy> {
  let mode: ProxyMode = { kind: 'pass' };
  let server: Server | undefined;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (mode.kind === 'error') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('node unavailable');
      return;
    }
    if (mode.kind === 'slow') await new Promise((r) => setTimeout(r, (mode as { delayMs: number }).delayMs));
    if (mode.kind === 'answer') {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: string };
      if (!Array.isArray(request) && request.method === mode.method) {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: mode.result }));
        return;
      }
    }
    try {
      const answer = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    } catch {
      res.writeHead(502).end();
    }
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((req, res) => void handle(req, res));
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const shut = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    async setMode(next) {
      mode = next;
    },
    close: shut,
  };
}
