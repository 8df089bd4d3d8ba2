/** The calls of a chosen swap route, by the router that executes it (SwapQuote.via). */
import type { IntentCall } from '../contracts/types.ts';
import type { SwapCallParams } from './types.ts';
import { swapRouter02Calls } from './uniswap-swap-router02-calls.ts';
import { uniswapV2RouterCalls } from './uniswap-v2.ts';

export function swapCalls(params: SwapCallParams): IntentCall[] {
  return params.quote.via === 'UNISWAP_V2_ROUTER' ? uniswapV2RouterCalls(params) : swapRouter02Calls(params);
}
