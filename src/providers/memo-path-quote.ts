/**
 * A path's quote function remembered per (trade type, amount) for the plan it belongs to: route choice asks
 * the same path for the same amount several times (the whole order, the split's chunks, the final parts),
 * and a simulation answer never changes within one snapshot of the pools.
 */
import type { SwapPath } from './types.ts';

export function memoPathQuote(quote: SwapPath['quote']): SwapPath['quote'] {
  const known = new Map<string, ReturnType<SwapPath['quote']>>();
  return (tradeType, amount) => {
    const key = `${tradeType}:${amount}`;
    let answer = known.get(key);
    if (!answer) {
      answer = quote(tradeType, amount);
      known.set(key, answer);
    }
    return answer;
  };
}
