/**
 * `npm run demo -- --recover` against an in-process devnet and server (as test/e2e/demo.test.ts runs the
 * demo): the child exits 0, prints each step, and the demo user's USDC on the second chain is what it was
 * before the mistake.
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, type E2eService, startE2eService } from '../e2e/support/e2e-fixture.ts';
import { runDemo } from '../e2e/support/run-demo.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';

let svc: E2eService;
let beta: TestDevnetChain;

beforeAll(async () => {
  svc = await startE2eService();
  beta = svc.net.chains[1]!;
  await svc.net.running.setAccessKey(svc.key, svc.url);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

describe('npm run demo -- --recover', () => {
  it('sends USDC to an intent address on the wrong chain and recovers it with the owner’s signature', async () => {
    const user = svc.net.devnet.accounts.user.address;
    const deployer = svc.net.devnet.accounts.deployer!.address;
    const usdcB = beta.entry.tokens.USDC as Address;
    const userBefore = await balanceOf(beta, usdcB, user);
    const deployerBefore = await balanceOf(beta, usdcB, deployer);

    const { code, stdout, stderr } = await runDemo(['--recover', '--data-dir', svc.net.dataDir]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    for (const step of [
      'QuoteIntent and CommitIntent',
      'The mistake: 25 USDC',
      'PrepareIntentRecovery',
      'recoverable: 25 USDC on chain',
      'The user signs the typed data',
      'BuildIntentRecoveryTransaction',
      'requiresDeploy true',
      'Someone else sends it',
    ]) {
      expect(stdout).toContain(step);
    }
    expect(await balanceOf(beta, usdcB, user)).toBe(userBefore);
    expect(await balanceOf(beta, usdcB, deployer)).toBe(deployerBefore);
  }, 90_000);
});
