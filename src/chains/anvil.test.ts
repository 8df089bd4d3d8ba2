import { afterAll, describe, expect, it } from 'vitest';
import { PortInUseError } from '../internal/errors.ts';
import { type AnvilInstance, startAnvil } from './anvil.ts';

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

describe('startAnvil', () => {
  const started: AnvilInstance[] = [];
  afterAll(async () => {
    await Promise.all(started.map((a) => a.stop()));
  });

  it('starts a chain on a free port that answers with its chain id', async () => {
    const anvil = await startAnvil({ chainId: 7_770_101 });
    started.push(anvil);
    expect(anvil.port).toBeGreaterThan(0);
    expect(await rpc(anvil.rpcUrl, 'eth_chainId')).toBe(`0x${(7_770_101).toString(16)}`);
  });

  it('reports a taken port as PortInUseError', async () => {
    const first = await startAnvil({ chainId: 7_770_102 });
    started.push(first);
    await expect(startAnvil({ chainId: 7_770_103, port: first.port })).rejects.toBeInstanceOf(PortInUseError);
  });

  it('stops the process', async () => {
    const anvil = await startAnvil({ chainId: 7_770_104 });
    await anvil.stop();
    expect(anvil.process.exitCode !== null || anvil.process.signalCode !== null).toBe(true);
  });
});
