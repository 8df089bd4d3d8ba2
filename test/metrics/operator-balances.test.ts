/**
 * The operator balance gauge's reads: a chain that answers gives every balance, exactly its own (native and
 * listed tokens, one round per TTL); a chain whose RPC takes the connection and never answers is left out
 * within BALANCE_READ_TIMEOUT_MS, so a scrape never waits out Prometheus's timeout.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { formatEther, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../src/chains/anvil.ts';
import { createChainClients } from '../../src/chains/create-chain-clients.ts';
import { createKeepAliveFetch } from '../../src/chains/keep-alive-fetch.ts';
import type { ChainConfig } from '../../src/internal/config-types.ts';
import { BALANCE_READ_TIMEOUT_MS, createOperatorBalances } from '../../src/metrics/operator-balances.ts';

/** anvil's default mnemonic, accounts 1 and 2 (10,000 ETH each at start). */
const RELAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SOLVER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
/** Time for the reads beyond the timeout itself on a loaded machine (ms). */
const SLACK_MS = 2_000;

let anvil: AnvilInstance;
let blackHole: Server;
let blackHoleUrl: string;
const held: Socket[] = [];
const rpcFetch = createKeepAliveFetch();

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 7_770_201 });
  // Accepts connections and reads requests, never answers: a node that hangs.
  blackHole = createServer((socket) => {
    held.push(socket);
    socket.resume();
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  blackHoleUrl = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`;
});
afterAll(async () => {
  rpcFetch.close();
  for (const socket of held) socket.destroy();
  blackHole?.close();
  await anvil?.stop();
});

function chain(chainId: number, rpcUrl: string): ChainConfig {
  return {
    chainId,
    name: `chain ${chainId}`,
    rpcUrls: [rpcUrl],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    isTestnet: true,
    confirmations: 1,
    tokens: [],
    contracts: {} as ChainConfig['contracts'],
  };
}

describe('operator balances for the metrics', () => {
  it('reads every balance of a chain that answers and leaves out one that hangs, within the timeout', async () => {
    const chains = [chain(7_770_201, anvil.rpcUrl), chain(7_770_202, blackHoleUrl)];
    const balances = createOperatorBalances({
      chains,
      clients: createChainClients(chains, { fetchFn: rpcFetch.fetch, batch: false }),
      operators: { relayer: RELAYER, solver: SOLVER },
    });
    const started = performance.now();
    const first = await balances();
    expect(performance.now() - started).toBeLessThan(BALANCE_READ_TIMEOUT_MS + SLACK_MS);
    expect(first).toEqual([
      { role: 'relayer', chainId: 7_770_201, token: 'ETH', tokens: 10_000 },
      { role: 'solver', chainId: 7_770_201, token: 'ETH', tokens: 10_000 },
    ]);

    // One round answers scrapes for its TTL: a payment after it shows at the next round only.
    await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'anvil_setBalance',
        params: [SOLVER, `0x${parseEther('1.5').toString(16)}`],
      }),
    });
    expect(await balances()).toEqual(first);
    const fresh = createOperatorBalances({
      chains: [chains[0]!],
      clients: createChainClients([chains[0]!], { fetchFn: rpcFetch.fetch, batch: false }),
      operators: { relayer: RELAYER, solver: SOLVER },
      ttlMs: 0,
    });
    expect((await fresh()).find((b) => b.role === 'solver')?.tokens).toBe(
      Number(formatEther(parseEther('1.5'))),
    );
  });
});
