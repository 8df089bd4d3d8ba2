import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNDING, usdc } from '../../src/devnet/constants.ts';
import { SETUP_MARKER_ADDRESS } from '../../src/devnet/setup-marker.ts';
import { startDevnet } from '../../src/devnet/start-devnet.ts';
import { PortInUseError } from '../../src/internal/errors.ts';
import { createSilentLogger } from '../../src/internal/logger.ts';
import { startTestDevnet, type TestDevnet } from '../harness/devnet.ts';

/** An address nobody controls: its balances change only through what the test sends it. */
const MARKER_RECIPIENT: Address = '0x000000000000000000000000000000000000dEaD';

describe('devnet persistence', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-restart-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const usdcBalance = async (net: TestDevnet, holder: Address) => {
    const chain = net.chains[1]!;
    return chain.publicClient.readContract({
      address: chain.entry.tokens.USDC!,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder],
    });
  };

  it('keeps chain state across a restart and does not set the chains up again', async () => {
    const first = await startTestDevnet({ dataDir });
    const chain = first.chains[1]!;
    const user = chain.walletFor('user');
    const hash = await user.writeContract({
      address: chain.entry.tokens.USDC!,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [MARKER_RECIPIENT, usdc('123')],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await first.stop();

    const second = await startTestDevnet({ dataDir });
    try {
      expect(await usdcBalance(second, MARKER_RECIPIENT)).toBe(usdc('123'));
      // Not topped up again: the user still lacks what it sent away before the restart.
      expect(await usdcBalance(second, second.devnet.accounts.user.address)).toBe(
        FUNDING.user.usdc - usdc('123'),
      );
      expect(second.devnet.chains[1]!.contracts).toEqual(first.devnet.chains[1]!.contracts);
    } finally {
      await second.stop();
    }
  });

  it('sets a chain up again, without redeploying, when its saved state is from another deployment', async () => {
    const first = await startTestDevnet({ dataDir });
    const beta = first.chains[1]!;
    const user = first.devnet.accounts.user.address;
    const spent = FUNDING.user.usdc - (await usdcBalance(first, user));
    expect(spent).toBe(usdc('123'));
    // As if the setup had been interrupted or the contracts had changed since the state was saved.
    await beta.testClient.setCode({ address: SETUP_MARKER_ADDRESS, bytecode: '0x01' });
    await first.stop();

    const second = await startTestDevnet({ dataDir });
    try {
      expect(await usdcBalance(second, user)).toBe(FUNDING.user.usdc);
      expect(await usdcBalance(second, MARKER_RECIPIENT)).toBe(usdc('123'));
      expect(second.devnet.chains[1]!.contracts).toEqual(first.devnet.chains[1]!.contracts);
    } finally {
      await second.stop();
    }
  });

  it('starts clean with reset', async () => {
    const net = await startTestDevnet({ dataDir, reset: true });
    try {
      expect(await usdcBalance(net, MARKER_RECIPIENT)).toBe(0n);
      expect(await usdcBalance(net, net.devnet.accounts.user.address)).toBe(FUNDING.user.usdc);
      const factory = net.devnet.chains[1]!.contracts.intentFactory;
      expect((await net.chains[1]!.publicClient.getCode({ address: factory }))?.length ?? 0).toBeGreaterThan(
        2,
      );
    } finally {
      await net.stop();
    }
  });
});

describe('a taken port', () => {
  let blocker: Server;
  let takenPort: number;
  beforeAll(async () => {
    // Hold a port whose lower neighbour is free, so that exactly the second chain hits the taken port.
    for (;;) {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      takenPort = (blocker.address() as { port: number }).port;
      if (await isPortFree(takenPort - 1)) break;
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
  });

  it('stops the devnet with an error naming the port and how to choose others', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-port-'));
    try {
      // The second chain (Beta) asks for basePort + 1, which the blocker holds.
      const attempt = startDevnet({ dataDir, basePort: takenPort - 1, log: createSilentLogger() });
      const error = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PortInUseError);
      expect((error as PortInUseError).port).toBe(takenPort);
      expect((error as Error).message).toContain(`127.0.0.1:${takenPort}`);
      expect((error as Error).message).toContain('Switchyard Beta');
      expect((error as Error).message).toContain('--base-port');
      // The chain that did start (Alpha, on the port below) was stopped again.
      expect(await isPortFree(takenPort - 1)).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
