/**
 * `npm run demo` against an in-process devnet and server: the test records its API URL and access key in
 * the devnet's devnet.json (as `npm start` does), runs scripts/demo.ts as a child pointed at that data dir,
 * and checks it exits 0, printed the steps, and that the demo user's balances moved on both chains.
 */
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDevnetChain } from '../harness/devnet.ts';
import { balanceOf, type E2eService, startE2eService } from './support/e2e-fixture.ts';
import { runDemo } from './support/run-demo.ts';

let svc: E2eService;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;

beforeAll(async () => {
  svc = await startE2eService();
  [alpha, beta] = svc.net.chains as [TestDevnetChain, TestDevnetChain];
  await svc.net.running.setAccessKey(svc.key, svc.url);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

describe('npm run demo', () => {
  it('swaps and bridges 100 USDC on alpha into DAI on beta for the demo user, printing each step', async () => {
    const user = svc.net.devnet.accounts.user.address;
    const usdcA = alpha.entry.tokens.USDC as Address;
    const daiB = beta.entry.tokens.DAI as Address;
    const usdcBefore = await balanceOf(alpha, usdcA, user);
    const daiBefore = await balanceOf(beta, daiB, user);

    const { code, stdout, stderr } = await runDemo(['--data-dir', svc.net.dataDir]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });

    expect(usdcBefore - (await balanceOf(alpha, usdcA, user))).toBe(parseUnits('100', 6));
    const daiGained = (await balanceOf(beta, daiB, user)) - daiBefore;
    expect(daiGained).toBeGreaterThan(parseUnits('90', 18));
    for (const step of [
      'QuoteIntent',
      'CommitIntent',
      'deposit tx 0x',
      'ExecuteIntent',
      'price impact',
      'SUCCEEDED',
    ]) {
      expect(stdout).toContain(step);
    }
    expect(stdout).toContain('balances after');
  }, 90_000);

  it('says what is wrong when the devnet has no access key (the API is not running)', async () => {
    await svc.net.running.setAccessKey('');
    const { code, stderr } = await runDemo(['--data-dir', svc.net.dataDir]);
    expect(code).toBe(1);
    expect(stderr).toContain('is `npm start` running?');
  }, 30_000);
});
