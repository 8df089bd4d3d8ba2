/**
 * The baseline: a bare `node:http` server that answers each benchmark request with the exact bytes
 * the API gave for it, looked up by the request's key (it still reads and parses the JSON body, as
 * any server must). What the API costs beyond this is its own work: access check, query, serialise.
 */
import http from 'node:http';

export interface BareServer {
  url: string;
  close(): Promise<void>;
}

/** `responses` maps `<path> <key>` to a body; `keyOf` names the request field that holds the key. */
export async function startBareServer(
  responses: ReadonlyMap<string, Buffer>,
  keyOf: Readonly<Record<string, string>>,
): Promise<BareServer> {
  const notFound = Buffer.from('{"error":"WebrpcBadRoute","code":-2,"msg":"not cached","status":404}');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      let body: Buffer | undefined;
      try {
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const field = keyOf[path];
        body = field ? responses.get(`${path} ${String(input[field])}`) : undefined;
      } catch {
        body = undefined;
      }
      res.writeHead(body ? 200 : 404, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': (body ?? notFound).length,
      });
      res.end(body ?? notFound);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
