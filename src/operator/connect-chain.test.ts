import { createServer } from 'node:net';
import { createPublicClient, http } from 'viem';
import { describe, expect, it } from 'vitest';
import { shortReason } from './connect-chain.ts';

/** The error viem gives for eth_chainId at `url`, one try. */
async function chainIdError(url: string): Promise<unknown> {
  const client = createPublicClient({ transport: http(url, { retryCount: 0, timeout: 5_000 }) });
  return client.getChainId().then(
    () => {
      throw new Error(`${url} answered`);
    },
    (error: unknown) => error,
  );
}

/** A loopback port nothing listens on (bound a moment ago, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('shortReason', () => {
  it('says why an HTTP request to an RPC failed, on one line', async () => {
    const port = await closedPort();
    expect(shortReason(await chainIdError(`http://127.0.0.1:${port}`))).toBe(
      `HTTP request failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    expect(shortReason(await chainIdError('http://127.0.0.1:10080'))).toBe(
      'HTTP request failed (bad port: fetch refuses to connect to that port)',
    );
  });

  it('keeps a message that already says it, and its first line only', () => {
    expect(shortReason(new Error('chain id 1 expected, got 2\nmore detail'))).toBe(
      'chain id 1 expected, got 2',
    );
    expect(shortReason(new Error('timed out', { cause: new Error('timed out') }))).toBe('timed out');
    expect(shortReason('plain')).toBe('plain');
  });
});
