import { afterAll, describe, expect, it } from 'vitest';
import { PortInUseError } from '../internal/errors.ts';
import { type AnvilInstance, startAnvil } from './anvil.ts';

async function rpcAnswer(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: { message: string } };
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  return (await rpcAnswer(url, method, params)).result;
}

/** The first funded account of anvil's default mnemonic. */
const ANVIL_ACCOUNT_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** Where prague keeps recent block hashes (EIP-2935); its storage grows with every block. */
const EIP2935_HISTORY_CONTRACT = '0x0000F90827F1C53a10cb7A02335B175320002935';

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

  it('runs the fork the contracts are compiled for (cancun): no EIP-2935 history contract, no prague header field', async () => {
    const anvil = await startAnvil({ chainId: 7_770_105 });
    started.push(anvil);
    expect(await rpc(anvil.rpcUrl, 'eth_getCode', [EIP2935_HISTORY_CONTRACT, 'latest'])).toBe('0x');
    const block = (await rpc(anvil.rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as Record<
      string,
      unknown
    >;
    expect(block).toHaveProperty('excessBlobGas');
    expect(block).not.toHaveProperty('requestsHash');
  });

  it('runs another fork when asked (prague: the history contract is there)', async () => {
    const anvil = await startAnvil({ chainId: 7_770_106, hardfork: 'prague' });
    started.push(anvil);
    expect(await rpc(anvil.rpcUrl, 'eth_getCode', [EIP2935_HISTORY_CONTRACT, 'latest'])).not.toBe('0x');
  });

  it('keeps the state of only the last keptStates blocks: calls at older blocks fail, recent ones answer', async () => {
    const anvil = await startAnvil({ chainId: 7_770_107, keptStates: 4 });
    started.push(anvil);
    await rpc(anvil.rpcUrl, 'anvil_mine', ['0x14']);
    const at = (block: number) =>
      rpcAnswer(anvil.rpcUrl, 'eth_getBalance', [ANVIL_ACCOUNT_0, `0x${block.toString(16)}`]);
    expect((await at(19)).result).toMatch(/^0x[0-9a-f]+$/);
    expect((await at(2)).error?.message).toBeDefined();
    const full = await startAnvil({ chainId: 7_770_108 });
    started.push(full);
    await rpc(full.rpcUrl, 'anvil_mine', ['0x14']);
    expect((await rpcAnswer(full.rpcUrl, 'eth_getBalance', [ANVIL_ACCOUNT_0, '0x2'])).result).toMatch(
      /^0x[0-9a-f]+$/,
    );
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
