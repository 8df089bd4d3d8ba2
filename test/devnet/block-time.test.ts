import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevnet, type TestDevnet } from '../harness/devnet.ts';

/** How often to look at the block number while waiting for an idle chain to mine. */
const POLL_MS = 100;

describe('the devnet with a block time', () => {
  let net: TestDevnet;
  beforeAll(async () => {
    net = await startTestDevnet({ blockTime: 1 });
  });
  afterAll(async () => {
    await net?.stop();
  });

  it('keeps mining blocks with no transactions (interval mining instead of automine)', async () => {
    const chain = net.chains[2]!;
    const start = await chain.publicClient.getBlockNumber();
    let now = start;
    while (now <= start) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      now = await chain.publicClient.getBlockNumber();
    }
    expect(now).toBeGreaterThan(start);
    expect(await chain.testClient.getAutomine()).toBe(false);
  });
});
