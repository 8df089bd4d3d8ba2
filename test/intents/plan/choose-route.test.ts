/**
 * `options.preference` among quoted routes (src/intents/plan/choose-route.ts), on plans reduced to the members
 * the choice reads: who wins for CHEAPEST and FASTEST in each trade type, ties, routes that could not be
 * quoted, and TRUSTLESS across chains.
 */
import { describe, expect, it } from 'vitest';
import { checkTrustless, choosePlan, wantsAlternatives } from '../../../src/intents/plan/choose-route.ts';
import type { ExecutionPlan } from '../../../src/intents/plan/types.ts';

interface Shape {
  name: string;
  tradeType?: ExecutionPlan['tradeType'];
  toAmount?: bigint;
  depositAmount?: bigint;
  legs?: number;
  /** Providers of one swap leg's parts, e.g. a split across V3 and V2. */
  split?: string[];
  gas?: bigint;
  duration?: number;
}

function plan(shape: Shape): ExecutionPlan {
  return {
    tradeType: shape.tradeType ?? 'EXACT_INPUT',
    amounts: { toAmount: shape.toAmount ?? 100n, depositAmount: shape.depositAmount ?? 100n },
    routeProviders: Array.from({ length: shape.legs ?? 2 }, () => 'UNISWAP_V2'),
    swapRoutes: shape.split ? [{ parts: shape.split.map((provider) => ({ provider })) }] : [],
    fees: { originGas: { gasLimit: shape.gas ?? 500_000n }, destinationGas: { gasLimit: 100_000n } },
    estimatedDuration: shape.duration ?? 30,
    name: shape.name,
  } as unknown as ExecutionPlan;
}

const quoted = (...shapes: Shape[]): PromiseSettledResult<ExecutionPlan>[] =>
  shapes.map((s) => ({ status: 'fulfilled', value: plan(s) }));
const nameOf = (p: ExecutionPlan) => (p as unknown as { name: string }).name;

describe('choosePlan', () => {
  it('RECOMMENDED and no preference keep the first route, and need no alternatives', () => {
    const routes = quoted({ name: 'first', toAmount: 1n }, { name: 'second', toAmount: 9n });
    expect(nameOf(choosePlan(routes, 'RECOMMENDED'))).toBe('first');
    expect(nameOf(choosePlan(routes, undefined))).toBe('first');
    expect(wantsAlternatives('RECOMMENDED')).toBe(false);
    expect(wantsAlternatives(undefined)).toBe(false);
    expect(wantsAlternatives('CHEAPEST')).toBe(true);
    expect(wantsAlternatives('FASTEST')).toBe(true);
  });

  it('CHEAPEST takes the most out for EXACT_INPUT and the least in for EXACT_OUTPUT; a tie keeps the earlier', () => {
    const input = quoted(
      { name: 'a', toAmount: 5n },
      { name: 'b', toAmount: 7n },
      { name: 'c', toAmount: 7n },
    );
    expect(nameOf(choosePlan(input, 'CHEAPEST'))).toBe('b');
    const output = quoted(
      { name: 'a', tradeType: 'EXACT_OUTPUT', depositAmount: 9n },
      { name: 'b', tradeType: 'EXACT_OUTPUT', depositAmount: 8n },
    );
    expect(nameOf(choosePlan(output, 'CHEAPEST'))).toBe('b');
  });

  it('FASTEST takes the shortest duration, then the fewest legs, then the least gas, then the cheapest', () => {
    expect(
      nameOf(
        choosePlan(quoted({ name: 'a', duration: 30 }, { name: 'b', duration: 10, legs: 5 }), 'FASTEST'),
      ),
    ).toBe('b');
    expect(
      nameOf(choosePlan(quoted({ name: 'a', legs: 4 }, { name: 'b', legs: 3, gas: 900_000n }), 'FASTEST')),
    ).toBe('b');
    expect(
      nameOf(choosePlan(quoted({ name: 'a', gas: 600_000n }, { name: 'b', gas: 400_000n }), 'FASTEST')),
    ).toBe('b');
    expect(
      nameOf(choosePlan(quoted({ name: 'a', toAmount: 1n }, { name: 'b', toAmount: 2n }), 'FASTEST')),
    ).toBe('b');
  });

  it('FASTEST counts a swap leg split across V3 and V2 (two routeProviders entries) as one leg', () => {
    // WETH, UNISWAP_V3, UNISWAP_V2, SWITCHYARD: three legs, one of them split.
    const split = { name: 'split', legs: 4, split: ['UNISWAP_V3', 'UNISWAP_V2'], gas: 600_000n };
    expect(nameOf(choosePlan(quoted({ name: 'four', legs: 4, gas: 400_000n }, split), 'FASTEST'))).toBe(
      'split',
    );
    // Against three unsplit legs the split only ties on legs, and its extra gas loses.
    expect(nameOf(choosePlan(quoted(split, { name: 'three', legs: 3, gas: 500_000n }), 'FASTEST'))).toBe(
      'three',
    );
  });

  it('leaves out routes that could not be quoted, and answers the first refusal when none could', () => {
    const refusal = new Error('pool too shallow');
    const mixed: PromiseSettledResult<ExecutionPlan>[] = [
      { status: 'rejected', reason: refusal },
      ...quoted({ name: 'b', toAmount: 3n }),
    ];
    expect(nameOf(choosePlan(mixed, 'CHEAPEST'))).toBe('b');
    const none: PromiseSettledResult<ExecutionPlan>[] = [
      { status: 'rejected', reason: refusal },
      { status: 'rejected', reason: new Error('solver short') },
    ];
    expect(() => choosePlan(none, 'CHEAPEST')).toThrow(refusal);
  });
});

describe('checkTrustless', () => {
  it('refuses TRUSTLESS across chains naming options.preference, and nothing else', () => {
    expect(() => checkTrustless('TRUSTLESS', true)).toThrow(
      /^options\.preference: TRUSTLESS has no route across chains/,
    );
    expect(() => checkTrustless('TRUSTLESS', false)).not.toThrow();
    expect(() => checkTrustless('CHEAPEST', true)).not.toThrow();
  });
});
