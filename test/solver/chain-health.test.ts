/**
 * Low-water marks and fee caps as the operator sees them, on a devnet with the whole service: beta's USDC
 * has a low-water mark just above what the solver holds (its DAI one is far below), and beta a 5 gwei cap.
 * - Under the mark: one warning in the logs, and RuntimeStatus marks beta degraded with the numbers (the
 *   holds of committed intents included), while `healthOK` stays true and alpha is not degraded. Checked
 *   again, no second warning; funded above the mark, beta recovers and the logs say so.
 * - A base fee above the cap: the same, with the chain's ask and the cap.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, erc20Abi, formatUnits, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { mint } from '../../src/devnet/mint.ts';
import { createLogger, type LogFields } from '../../src/internal/logger.ts';
import { tokenOf, usdc, usdcToSecondChain } from '../e2e/support/requests.ts';
import { startTestService, type TestService } from '../harness/app.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';

const CAP = parseGwei('5');
/** Long: each test runs the checks itself (chainHealth.check), so the timer never races them. */
const NEVER_MS = 3_600_000;

let net: TestDevnet;
let svc: TestService;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let solver: Address;
let betaUsdc: Address;
let mark: bigint;
const logs: LogFields[] = [];

beforeAll(async () => {
  net = await startTestDevnet();
  [alpha, beta] = net.chains as [TestDevnetChain, TestDevnetChain];
  solver = net.devnet.accounts.solver!.address;
  betaUsdc = tokenOf(beta, 'USDC');
  const held = await beta.publicClient.readContract({
    address: betaUsdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [solver],
  });
  mark = held + 1n;
  const chains = net.chainConfigs.map((c) =>
    c.chainId !== beta.entry.chainId
      ? c
      : {
          ...c,
          maxFeePerGasWei: CAP,
          tokens: c.tokens.map((t) =>
            t.symbol === 'USDC'
              ? { ...t, lowWaterMark: mark }
              : t.symbol === 'DAI'
                ? { ...t, lowWaterMark: 1n }
                : t,
          ),
        },
  );
  svc = await startTestService({
    chains,
    operator: devnetOperator(net.devnet),
    engine: { requestExecution: async () => undefined },
    rateLimit: false,
    chainHealthIntervalMs: NEVER_MS,
    log: createLogger({ level: 'info', format: 'json', write: (line) => logs.push(JSON.parse(line)) }),
  });
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await net?.stop();
});

interface Service {
  name: string;
  healthy: boolean;
  degraded?: boolean;
  warning?: string;
}

async function runtimeStatus(): Promise<{ healthOK: boolean; services: Service[] }> {
  const response = await fetch(`${svc.url}/rpc/Trails/RuntimeStatus`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { status: { healthOK: boolean; services: Service[] } }).status;
}

const chainService = (status: { services: Service[] }, chain: TestDevnetChain) =>
  status.services.find((s) => s.name === `chain:${chain.entry.chainId}`)!;
const warnings = (about: string) =>
  logs.filter((l) => l.level === 'warn' && String(l.msg).includes(about) && l.chainId === beta.entry.chainId);
const shown = (amount: bigint) => `${formatUnits(amount, 6)} USDC`;

describe('a low-water mark', () => {
  it('under it: one warning, and RuntimeStatus marks the chain degraded with the numbers, holds included', async () => {
    await svc.chainHealth!.check();
    const balance = mark - 1n;
    const expected =
      `solver inventory of USDC on chain ${beta.entry.chainId} is below its low-water mark: ` +
      `${shown(balance)} available (balance ${shown(balance)}, ${shown(0n)} held by open orders), mark ${shown(mark)}`;
    const status = await runtimeStatus();
    expect(status.healthOK).toBe(true);
    expect(chainService(status, beta)).toMatchObject({ healthy: true, degraded: true, warning: expected });
    expect(chainService(status, alpha).degraded).toBeUndefined();
    expect(warnings('low-water mark').map((l) => l.msg)).toEqual([expected]);

    // A committed intent holds part of the inventory: the numbers follow, the warning is not repeated.
    const api = new TrailsApi(svc.key, { hostname: svc.url });
    const { intent } = await api.quoteIntent(usdcToSecondChain(net, usdc('100')));
    await api.commitIntent({ intent });
    await svc.chainHealth!.check();
    const held = intent.quote.toAmount;
    expect(chainService(await runtimeStatus(), beta).warning).toContain(
      `${shown(balance - held)} available (balance ${shown(balance)}, ${shown(held)} held by open orders)`,
    );
    expect(warnings('low-water mark')).toHaveLength(1);
  });

  it('funded above it again: the chain recovers and the logs say so', async () => {
    await mint(
      { publicClient: beta.publicClient, walletClient: beta.walletFor('user') },
      betaUsdc,
      solver,
      usdc('1000'),
    );
    await svc.chainHealth!.check();
    const status = await runtimeStatus();
    expect(chainService(status, beta).degraded).toBeUndefined();
    expect(chainService(status, beta).warning).toBeUndefined();
    expect(
      logs.filter((l) => l.msg === 'chain no longer degraded' && l.chainId === beta.entry.chainId),
    ).toHaveLength(1);
  });
});

describe('a fee cap', () => {
  it('a base fee above it marks the chain degraded until it falls', async () => {
    await beta.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('6') });
    await beta.testClient.mine({ blocks: 1 });
    await svc.chainHealth!.check();
    const expected =
      `gas on chain ${beta.entry.chainId} is above its cap: the chain asks 6 gwei per gas, the cap is 5 gwei; ` +
      'its transactions wait and its quotes are refused';
    expect(chainService(await runtimeStatus(), beta)).toMatchObject({ degraded: true, warning: expected });
    expect(warnings('above its cap').map((l) => l.msg)).toEqual([expected]);

    await beta.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('1') });
    await beta.testClient.mine({ blocks: 1 });
    await svc.chainHealth!.check();
    expect(chainService(await runtimeStatus(), beta).degraded).toBeUndefined();
  });
});
