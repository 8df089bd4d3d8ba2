/**
 * The calls of a route through SwapRouter02: `approve(router, own balance)` and one
 * `multicall(deadline, [part, part, …])`, each part a V3 `exactInput` / `exactOutput` over its packed path or
 * a V2 `swapExactTokensForTokens` / `swapTokensForExactTokens` (SwapRouter02 reaches the V2 pairs too). Every
 * part carries its own amounts, so a split order is executed exactly as quoted.
 *
 * Limits per part: EXACT_INPUT splits the route's minimum output over the parts in proportion to their quoted
 * output, the last part taking the remainder, so the parts' minimums add up to the route's and each is its
 * own output less the slippage; EXACT_OUTPUT splits the most the route may spend the same way.
 *
 * Native out: the parts pay the router, which unwraps all of it to the recipient with the route's minimum.
 */
import { type Address, concat, erc20Abi, type Hex, numberToHex } from 'viem';
import { ERC20_AMOUNT_OFFSET, FillKind, type IntentCall } from '../contracts/types.ts';
import { swapRouter02Abi } from './abis.ts';
import { createCalldataEncoder } from './calldata-encoder.ts';
import { ProviderId, type SwapCallParams, type SwapPart } from './types.ts';

/** SwapRouter02's recipient flags (its Constants library). */
const MSG_SENDER: Address = '0x0000000000000000000000000000000000000001';
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002';
/** A V3 path packs each fee as 3 bytes between the 20-byte token addresses. */
const FEE_BYTES = 3;

const encode = {
  approve: createCalldataEncoder(erc20Abi, 'approve'),
  multicall: createCalldataEncoder(swapRouter02Abi, 'multicall'),
  exactInput: createCalldataEncoder(swapRouter02Abi, 'exactInput'),
  exactOutput: createCalldataEncoder(swapRouter02Abi, 'exactOutput'),
  v2ExactIn: createCalldataEncoder(swapRouter02Abi, 'swapExactTokensForTokens'),
  v2ExactOut: createCalldataEncoder(swapRouter02Abi, 'swapTokensForExactTokens'),
  unwrap: createCalldataEncoder(swapRouter02Abi, 'unwrapWETH9'),
};

export function swapRouter02Calls(params: SwapCallParams): IntentCall[] {
  const { quote, recipient, nativeOut, deadline } = params;
  const exactIn = quote.tradeType === 'EXACT_INPUT';
  const to = nativeOut ? ADDRESS_THIS : recipient.kind === 'self' ? MSG_SENDER : recipient.address;
  const limits = partLimits(params);
  const inner: Hex[] = quote.parts.map((part, i) => partCall(part, exactIn, to, limits[i]!));
  if (nativeOut) {
    if (recipient.kind !== 'address') throw new TypeError('native out needs a recipient address');
    inner.push(encode.unwrap([exactIn ? params.amountOutLimit : quote.amountOut, recipient.address]));
  }
  const approve: IntentCall = {
    target: quote.tokenIn,
    value: 0n,
    data: encode.approve([quote.router, 0n]),
    fills: [{ kind: FillKind.OwnBalance, token: quote.tokenIn, offset: ERC20_AMOUNT_OFFSET }],
  };
  return [approve, { target: quote.router, value: 0n, data: encode.multicall([deadline, inner]), fills: [] }];
}

function partCall(part: SwapPart, exactIn: boolean, to: Address, limit: bigint): Hex {
  const tokens = [...part.tokens];
  if (part.provider === ProviderId.UniswapV2) {
    return exactIn
      ? encode.v2ExactIn([part.amountIn, limit, tokens, to])
      : encode.v2ExactOut([part.amountOut, limit, tokens, to]);
  }
  if (exactIn) {
    const path = packPath(tokens, part.fees);
    return encode.exactInput([{ path, recipient: to, amountIn: part.amountIn, amountOutMinimum: limit }]);
  }
  // exactOutput walks the path from the output back to the input.
  const path = packPath(tokens.reverse(), [...part.fees].reverse());
  return encode.exactOutput([{ path, recipient: to, amountOut: part.amountOut, amountInMaximum: limit }]);
}

function packPath(tokens: readonly Address[], fees: readonly number[]): Hex {
  const pieces: Hex[] = [tokens[0]!];
  fees.forEach((fee, i) => {
    pieces.push(numberToHex(fee, { size: FEE_BYTES }), tokens[i + 1]!);
  });
  return concat(pieces).toLowerCase() as Hex;
}

/** Each part's limit: its minimum output (EXACT_INPUT) or its most input (EXACT_OUTPUT). */
export function partLimits(
  params: Pick<SwapCallParams, 'quote' | 'amountOutLimit' | 'amountInLimit'>,
): bigint[] {
  const { quote } = params;
  return quote.tradeType === 'EXACT_INPUT'
    ? shareOut(
        params.amountOutLimit,
        quote.parts.map((p) => p.amountOut),
        quote.amountOut,
      )
    : shareOut(
        params.amountInLimit ?? quote.amountIn,
        quote.parts.map((p) => p.amountIn),
        quote.amountIn,
      );
}

/** `total` over the parts in proportion to `weights` (rounded down), the last part taking the remainder. */
function shareOut(total: bigint, weights: readonly bigint[], weightSum: bigint): bigint[] {
  const shares = weights.map((w) => (weightSum === 0n ? 0n : (total * w) / weightSum));
  const rest = shares.slice(0, -1).reduce((a, b) => a + b, 0n);
  shares[shares.length - 1] = total - rest;
  return shares;
}
