/**
 * Gas in a quote, through the official client on a devnet: each chain's gas is priced at its current base
 * fee × 3/2 plus its priority fee (anvil's: 1 gwei), at most the chain's `maxFeePerGasGwei` cap, and a chain
 * whose base fee is above its cap is refused (Unavailable), since its transactions would wait.
 */
import { type QuoteIntentRequest, TrailsApi, UnavailableError } from '@0xtrails/api';
import { parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devnetOperator } from '../../src/app/devnet-operator.ts';
import { QUOTE_FEE_CACHE_MS } from '../../src/intents/plan/constants.ts';
import { usdc, usdcToSecondChain } from '../e2e/support/requests.ts';
import { startTestService, type TestService } from '../harness/app.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';

const TIP = parseGwei('1');
const CAP = parseGwei('5');

let net: TestDevnet;
let plain: TestService;
let capped: TestService;
let beta: TestDevnetChain;

beforeAll(async () => {
  net = await startTestDevnet();
  beta = net.chains[1]!;
  // Quotes only: a recording engine, so neither service sends anything.
  const engine = { requestExecution: async () => undefined };
  const operator = devnetOperator(net.devnet);
  plain = await startTestService({ chains: net.chainConfigs, operator, engine, rateLimit: false });
  const cappedChains = net.chainConfigs.map((c) =>
    c.chainId === beta.entry.chainId ? { ...c, maxFeePerGasWei: CAP } : c,
  );
  capped = await startTestService({ chains: cappedChains, operator, engine, rateLimit: false });
}, 120_000);
afterAll(async () => {
  await capped?.stop();
  await plain?.stop();
  await net?.stop();
});

/** The next block on beta has this base fee; quotes read it once their fee cache has run out. */
async function setBetaBaseFee(baseFeePerGas: bigint): Promise<void> {
  await beta.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas });
  await beta.testClient.mine({ blocks: 1 });
  expect((await beta.publicClient.getBlock()).baseFeePerGas).toBe(baseFeePerGas);
  await new Promise((r) => setTimeout(r, QUOTE_FEE_CACHE_MS + 100));
}

const request = (): QuoteIntentRequest => usdcToSecondChain(net, usdc('100'));

describe('gas in a quote', () => {
  it('is priced at the base fee × 3/2 plus the priority fee', async () => {
    await setBetaBaseFee(parseGwei('4'));
    const { intent } = await new TrailsApi(plain.key, { hostname: plain.url }).quoteIntent(request());
    const gas = intent.fees.destinationGas!;
    expect(gas.gasPrice).toBe(parseGwei('4') + TIP);
    expect(gas.totalFeeAmount).toBe(gas.totalGasLimit * ((parseGwei('4') * 3n) / 2n + TIP));
  });

  it('is at most the chain cap', async () => {
    // 4 gwei × 3/2 + 1 gwei = 7 gwei wanted; the cap is 5.
    const { intent } = await new TrailsApi(capped.key, { hostname: capped.url }).quoteIntent(request());
    const gas = intent.fees.destinationGas!;
    expect(gas.gasPrice).toBe(parseGwei('4') + TIP);
    expect(gas.totalFeeAmount).toBe(gas.totalGasLimit * CAP);
  });

  it('is refused while the base fee is above the chain cap', async () => {
    await setBetaBaseFee(parseGwei('6'));
    const error = await new TrailsApi(capped.key, { hostname: capped.url })
      .quoteIntent(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).message).toBe(
      `gas on chain ${beta.entry.chainId} costs 7 gwei now, above this server's cap of 5 gwei: transactions there wait until it falls; quote again later`,
    );
    // The same chain without a cap still quotes.
    const { intent } = await new TrailsApi(plain.key, { hostname: plain.url }).quoteIntent(request());
    expect(intent.fees.destinationGas!.gasPrice).toBe(parseGwei('6') + TIP);
  });
});
