/**
 * Gas and fees (DESIGN §6). Gas is estimated from measured per-call constants (no eth_estimateGas: the
 * account does not exist at quote time), priced at the chain's current base fee × BASE_FEE_QUOTE_MARGIN plus
 * its priority fee (a legacy chain: its gas price × the margin), at most the chain's fee cap, and converted to
 * the fee token (the origin token) through USD prices.
 */
import type { Address } from 'viem';
import { type ChainFees, currentGasPrice } from '../../chains/chain-fees.ts';
import { APPROVE_GAS, FILL_GAS, LOCK_GAS, SETTLE_GAS, UNWRAP_GAS, WRAP_GAS } from '../../providers/gas.ts';
import {
  BASE_FEE_QUOTE_MARGIN_DENOMINATOR,
  BASE_FEE_QUOTE_MARGIN_NUMERATOR,
  DESTINATION_CALL_GAS,
  EXECUTE_BASE_GAS,
  TRANSFER_GAS,
} from './constants.ts';
import { convert, type Priced, usdValue } from './money.ts';
import type { RouteShape } from './resolve-route.ts';
import type { ChainGas } from './types.ts';

/** Gas of the final stage's delivery: a contract call (with its approve) or a transfer / native send. */
function deliveryGas(shape: RouteShape): bigint {
  const unwrap = shape.unwrapAtEnd ? UNWRAP_GAS : 0n;
  return unwrap + (shape.call ? APPROVE_GAS + DESTINATION_CALL_GAS : TRANSFER_GAS);
}

/** Gas units of the destination account's calls (also the base of its minGas). */
export function destinationCallsGas(shape: RouteShape): bigint {
  return (shape.destinationSwap?.gas ?? 0n) + deliveryGas(shape);
}

/**
 * Gas units the operator spends per chain: origin execute (+ settle), destination fill + execute.
 * `originExtra` is gas of origin calls before the route's own (WITHDRAW's redeem).
 */
export function gasUnits(shape: RouteShape, originExtra = 0n): { origin: bigint; destination: bigint } {
  const originCalls =
    originExtra + TRANSFER_GAS + (shape.wrapOnOrigin ? WRAP_GAS : 0n) + (shape.originSwap?.gas ?? 0n);
  if (!shape.crossChain) {
    return { origin: EXECUTE_BASE_GAS + originCalls + deliveryGas(shape), destination: 0n };
  }
  return {
    origin: EXECUTE_BASE_GAS + originCalls + LOCK_GAS + SETTLE_GAS,
    destination: FILL_GAS + EXECUTE_BASE_GAS + destinationCallsGas(shape),
  };
}

const margin = (v: bigint) => (v * BASE_FEE_QUOTE_MARGIN_NUMERATOR) / BASE_FEE_QUOTE_MARGIN_DENOMINATOR;

/** What the quote charges per gas: the base fee with its margin plus the tip (legacy: the gas price with it), at most the cap. */
export function quotedGasPrice(fees: ChainFees, cap?: bigint): bigint {
  const price =
    fees.type === 'legacy' ? margin(fees.gasPrice) : margin(fees.baseFeePerGas) + fees.maxPriorityFeePerGas;
  return cap !== undefined && price > cap ? cap : price;
}

/** The chain's gas fee for `gasLimit` units at its current fees (read by the caller for this quote). */
export function chainGas(params: {
  fees: ChainFees;
  /** The chain's fee cap (wei), if it has one. */
  cap?: bigint | undefined;
  chainId: number;
  gasLimit: bigint;
  native: Priced;
  feeToken: Priced & { address: Address };
  feeTokenIsThisNative: boolean;
}): ChainGas {
  const gasPrice = currentGasPrice(params.fees);
  const feeNative = params.gasLimit * quotedGasPrice(params.fees, params.cap);
  const feeAmount = params.feeTokenIsThisNative
    ? feeNative
    : convert(feeNative, params.native, params.feeToken);
  return {
    chainId: params.chainId,
    gasLimit: params.gasLimit,
    gasPrice,
    feeNative,
    feeAmount,
    feeUsd: usdValue(feeAmount, params.feeToken),
    nativePriceUsd: params.native.priceUsd,
  };
}
