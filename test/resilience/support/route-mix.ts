/**
 * The six route kinds of the random-kill runs: cross-chain USDC, with a destination swap, a same-chain swap,
 * DAI→USDC, native ETH in, and a destination call that reverts (the owner is refunded: REFUNDED).
 */
import type { QuoteIntentRequest } from '@0xtrails/api';
import { type Address, encodeFunctionData, parseEther } from 'viem';
import { accruingVaultAbi } from '../../../src/contracts/abis.generated.ts';
import { AMOUNT_PLACEHOLDER } from '../../../src/intents/plan/constants.ts';
import { dai, freshAddress, quoteRequest, usdc } from '../../e2e/support/requests.ts';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import type { ResilienceService } from './resilience-service.ts';
import type { ResilienceSuite } from './suite.ts';

export interface Route {
  name: string;
  expected: 'SUCCEEDED' | 'REFUNDED';
  request(recipient: Address): QuoteIntentRequest;
}

/** The devnet's chains and the service's devnet (a resilience suite, or any run on one devnet). */
export type RouteChains = Pick<ResilienceSuite, 'alpha' | 'beta' | 'gamma'> & {
  svc: Pick<ResilienceService, 'net'>;
};

export function routeMix(suite: RouteChains): Route[] {
  const { alpha, beta, gamma, svc } = suite;
  const owner = svc.net.devnet.accounts.user.address;
  const r =
    (from: TestDevnetChain, fromToken: string, to: TestDevnetChain, toToken: string, amountIn: bigint) =>
    (recipient: Address) =>
      quoteRequest({ owner, from, fromToken, to, toToken, recipient, amountIn });
  const vault = gamma.entry.contracts.usdcVault as Address;
  return [
    { name: 'USDC alpha→beta', expected: 'SUCCEEDED', request: r(alpha, 'USDC', beta, 'USDC', usdc('25')) },
    {
      name: 'USDC alpha→DAI beta',
      expected: 'SUCCEEDED',
      request: r(alpha, 'USDC', beta, 'DAI', usdc('30')),
    },
    { name: 'USDC→DAI on alpha', expected: 'SUCCEEDED', request: r(alpha, 'USDC', alpha, 'DAI', usdc('20')) },
    {
      name: 'DAI gamma→USDC alpha',
      expected: 'SUCCEEDED',
      request: r(gamma, 'DAI', alpha, 'USDC', dai('35')),
    },
    {
      name: 'ETH alpha→USDC beta',
      expected: 'SUCCEEDED',
      request: r(alpha, 'ETH', beta, 'USDC', parseEther('0.02')),
    },
    {
      // deposit() without an approval: the destination call reverts, the owner is refunded on gamma.
      name: 'USDC alpha→gamma vault call that reverts',
      expected: 'REFUNDED',
      request: () =>
        quoteRequest({
          owner,
          from: alpha,
          fromToken: 'USDC',
          to: gamma,
          toToken: 'USDC',
          recipient: vault,
          amountIn: usdc('15'),
          extra: {
            destinationCallData: encodeFunctionData({
              abi: accruingVaultAbi,
              functionName: 'deposit',
              args: [BigInt(AMOUNT_PLACEHOLDER), freshAddress()],
            }),
            destinationCallValue: 0n,
          } as never,
        }),
    },
  ];
}
