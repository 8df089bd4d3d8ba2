/**
 * QuoteIntent refusals name the request field that caused them (InvalidArgument 2000, `cause:
 * field=<path>`, the message starting with the path): routes that cannot serve the amount or the provider,
 * and recipients that would burn the output (the zero address, a token or service contract given a plain
 * transfer). Each case runs on /rpc/Trails and /rpc/Service with plain HTTP and through the official client.
 */
import { InvalidArgumentError, type QuoteIntentRequest, type TrailsApi } from '@0xtrails/api';
import { type Address, encodeFunctionData, erc20Abi, parseUnits, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { type ServiceServer, type ServiceSuite, startServiceSuite } from './support.ts';

const usdc = (n: string) => parseUnits(n, 6);
const dai = (n: string) => parseUnits(n, 18);

let s: ServiceSuite;
let key: string;
let srv: ServiceServer;
let api: TrailsApi;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let gamma: TestDevnetChain;
let user: Address;

beforeAll(async () => {
  s = await startServiceSuite();
  ({ key, srv, api, user } = s);
  [alpha, beta, gamma] = s.chains;
}, 120_000);
afterAll(() => s?.stop());

/** USDC on alpha to `toSymbol` on `to`, 100 USDC in, to the user; `extra` overrides any member. */
function request(extra: Partial<QuoteIntentRequest> = {}, to?: TestDevnetChain, toSymbol = 'USDC') {
  const destination = to ?? beta;
  return {
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: alpha.entry.tokens.USDC!,
    destinationChainId: destination.entry.chainId,
    destinationTokenAddress: toSymbol === 'ETH' ? zeroAddress : destination.entry.tokens[toSymbol]!,
    destinationToAddress: user,
    originTokenAmount: usdc('100'),
    destinationTokenAmount: 0n,
    tradeType: 'EXACT_INPUT',
    ...extra,
  } as QuoteIntentRequest;
}

type Prefix = 'Trails' | 'Service';

/** QuoteIntent over plain HTTP: bigints as decimal strings, undefined members left out. */
async function quoteOver(prefix: Prefix, body: QuoteIntentRequest) {
  const response = await fetch(`${srv.url}/rpc/${prefix}/QuoteIntent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': key },
    body: JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The quote is refused with InvalidArgument naming `field`, on both prefixes and through the client. */
async function expectRefusal(body: QuoteIntentRequest, field: string, reason: RegExp): Promise<void> {
  const label = `${field}: ${JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? `${v}` : v))}`;
  for (const prefix of ['Trails', 'Service'] as const) {
    const { status, json } = await quoteOver(prefix, body);
    expect({ prefix, status, code: json.code, cause: json.cause }, label).toEqual({
      prefix,
      status: 400,
      code: 2000,
      cause: `field=${field}`,
    });
    expect(json.msg, label).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: `));
    expect(json.msg, label).toMatch(reason);
  }
  const error = await api.quoteIntent(body).catch((e: unknown) => e);
  expect(error, label).toBeInstanceOf(InvalidArgumentError);
  expect((error as InvalidArgumentError).cause, label).toBe(`field=${field}`);
  expect((error as Error).message, label).toMatch(reason);
}

describe('a route that cannot be built names the request field', () => {
  it('EXACT_INPUT without an amount, or with zero', async () => {
    const { originTokenAmount: _omitted, ...withoutAmount } = request();
    await expectRefusal(withoutAmount as QuoteIntentRequest, 'originTokenAmount', /positive amount/);
    await expectRefusal(request({ originTokenAmount: 0n }), 'originTokenAmount', /positive amount/);
  });

  it('EXACT_OUTPUT without a destination amount', async () => {
    await expectRefusal(
      request({ tradeType: 'EXACT_OUTPUT' as QuoteIntentRequest['tradeType'], destinationTokenAmount: 0n }),
      'destinationTokenAmount',
      /positive amount/,
    );
  });

  it('an amount that does not cover the fees', async () => {
    await expectRefusal(request({ originTokenAmount: 1n }), 'originTokenAmount', /does not cover the fees/);
  });

  it('an exact output whose deposit exceeds the cap in originTokenAmount', async () => {
    await expectRefusal(
      request(
        {
          tradeType: 'EXACT_OUTPUT' as QuoteIntentRequest['tradeType'],
          destinationTokenAmount: dai('120'),
          originTokenAmount: usdc('1'),
        },
        beta,
        'DAI',
      ),
      'originTokenAmount',
      /exceeds user-specified maximum/,
    );
  });

  it('a swap or bridge provider this server does not have', async () => {
    await expectRefusal(
      request({ options: { swapProvider: 'ZEROX' } } as Partial<QuoteIntentRequest>),
      'options.swapProvider',
      /ZEROX is not available on this server/,
    );
    await expectRefusal(
      request({ options: { bridgeProvider: 'CCTP' } } as Partial<QuoteIntentRequest>),
      'options.bridgeProvider',
      /CCTP is not available on this server/,
    );
  });

  it('more than the pools can serve names the amount of the trade type', async () => {
    // A same-chain swap for more DAI than alpha's pool holds. (More than the solver can fill is not a
    // field's fault but the operator's capacity: Unavailable, test/solver/quote-inventory.test.ts.)
    await expectRefusal(
      request({
        destinationChainId: alpha.entry.chainId,
        destinationTokenAddress: alpha.entry.tokens.DAI!,
        tradeType: 'EXACT_OUTPUT' as QuoteIntentRequest['tradeType'],
        destinationTokenAmount: dai('50000000000'),
        originTokenAmount: 0n,
      }),
      'destinationTokenAmount',
      /pools on chain \d+ cannot produce/,
    );
  });

  it('a token that is not listed', async () => {
    await expectRefusal(
      request({ originTokenAddress: '0x000000000000000000000000000000000000dEaD' }),
      'originTokenAddress',
      /is not listed on chain/,
    );
  });

  it('a destination call that would receive the native currency', async () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [user, 1n] });
    await expectRefusal(
      request({ destinationToAddress: beta.entry.tokens.USDC!, destinationCallData: data }, beta, 'ETH'),
      'destinationTokenAddress',
      /native currency/,
    );
  });
});

describe('a recipient that would burn the output is refused', () => {
  it('the zero address as destinationToAddress, with or without a call', async () => {
    await expectRefusal(
      request({ destinationToAddress: zeroAddress }),
      'destinationToAddress',
      /zero address/,
    );
    await expectRefusal(
      request({ destinationToAddress: zeroAddress }, beta, 'ETH'),
      'destinationToAddress',
      /zero address/,
    );
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [user, usdc('1')] });
    await expectRefusal(
      request({ destinationToAddress: zeroAddress, destinationCallData: data }),
      'destinationToAddress',
      /zero address/,
    );
  });

  it('the zero address as the owner (the default recipient, and where refunds go)', async () => {
    const { destinationToAddress: _none, ...toOwner } = request({ ownerAddress: zeroAddress });
    await expectRefusal(toOwner as QuoteIntentRequest, 'ownerAddress', /zero address/);
    await expectRefusal(request({ ownerAddress: zeroAddress }), 'ownerAddress', /zero address/);
  });

  it('the destination token contract itself (in any letter case) for a plain transfer', async () => {
    const token = beta.entry.tokens.USDC!;
    for (const spelling of [token, token.toLowerCase()]) {
      await expectRefusal(
        request({ destinationToAddress: spelling }),
        'destinationToAddress',
        /token contract/,
      );
    }
    // Same chain, same token: the deposit would go straight to the token contract.
    await expectRefusal(
      request(
        { destinationToAddress: alpha.entry.tokens.USDC!, destinationChainId: alpha.entry.chainId },
        alpha,
      ),
      'destinationToAddress',
      /token contract/,
    );
  });

  it("another listed token or one of the destination chain's contracts for a plain transfer", async () => {
    const contracts = gamma.entry.contracts;
    for (const target of [
      gamma.entry.tokens.DAI!,
      contracts.destinationSettler!,
      contracts.uniswapV2Router!,
      contracts.usdcVault!,
    ]) {
      await expectRefusal(
        request({ destinationToAddress: target as Address }, gamma),
        'destinationToAddress',
        /contract/,
      );
    }
  });

  it('still quotes a call into the token contract (the SDK sends transfer calldata that way)', async () => {
    const token = beta.entry.tokens.USDC!;
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [user, usdc('90')] });
    const { intent } = await api.quoteIntent(
      request({ destinationToAddress: token, destinationCallData: data }),
    );
    expect(intent.status).toBe('QUOTED');
    expect(intent.destinationCalls?.calls.some((c) => c.to.toLowerCase() === token.toLowerCase())).toBe(true);
  });
});
