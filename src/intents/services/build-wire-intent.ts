/**
 * The wire Intent of a quote, built from the execution plan: every member of the spec with a real value.
 * docs/intents.md lists where each comes from. Amounts stay bigint here; the API turns them into strings.
 */
import { type Address, erc20Abi, type Hex, isAddressEqual, zeroAddress } from 'viem';
import { encodeDeployIfNeededAndExecute } from '../../contracts/calldata.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import { keccak256 } from '../../internal/keccak256.ts';
import { createCalldataEncoder } from '../../providers/calldata-encoder.ts';
import type { GasFeeOptions, IntentDocument, QuoteRequest } from '../intent-document.ts';
import type { ChainGas, ExecutionPlan, PlannedIntent } from '../plan/types.ts';
import { INTENT_PROTOCOL } from './check-quote-options.ts';
import {
  DESTINATION_BEHAVIOR_ON_ERROR,
  ERC20_BALANCE,
  NATIVE_BALANCE,
  ORIGIN_BEHAVIOR_ON_ERROR,
} from './constants.ts';
import { tokenDecimals } from './token-info.ts';

const encodeTransfer = createCalldataEncoder(erc20Abi, 'transfer');

export type WireIntent = IntentDocument;
export type WireGasFeeOptions = GasFeeOptions;
type WireCalls = WireIntent['originCalls'];
type WireGasFee = WireIntent['fees']['originGas'];
type WireMetaTxn = WireIntent['originMetaTxn'];

export interface WireIntentInput {
  request: QuoteRequest;
  plan: ExecutionPlan;
  origin: ChainConfig;
  destination: ChainConfig;
  version: string;
  now: Date;
}

const iso = (unixSeconds: bigint) => new Date(Number(unixSeconds) * 1000).toISOString();

export function buildWireIntent(input: WireIntentInput): WireIntent {
  const { plan, origin, destination, request } = input;
  const intentId = plan.origin.hash.toLowerCase();
  const originMetaTxn = metaTxn(origin, plan.origin, plan.fees.destinationGas?.gasLimit ?? 0n);
  const destinationMetaTxn = plan.destination && metaTxn(destination, plan.destination, 0n);
  const wire: WireIntent = {
    intentId,
    status: 'QUOTED',
    quoteRequest: { ...request, tradeType: plan.tradeType },
    ownerAddress: request.ownerAddress,
    originChainId: origin.chainId,
    destinationChainId: destination.chainId,
    originIntentAddress: plan.origin.address,
    // Same-chain routes deliver from the origin account: it is the destination account too.
    destinationIntentAddress: (plan.destination ?? plan.origin).address,
    salt: BigInt(plan.origin.intent.salt),
    depositTransaction: depositTransaction(origin, plan),
    originCalls: calls(plan.origin, ORIGIN_BEHAVIOR_ON_ERROR),
    originPrecondition: precondition(plan.origin),
    originMetaTxn,
    quote: quote(plan, intentId),
    fees: fees(plan, origin, destination, originMetaTxn.id, destinationMetaTxn?.id),
    trailsVersion: input.version,
    trailsContracts: {
      trailsIntentEntrypointAddress: origin.contracts.intentFactory,
      trailsRouterAddress: origin.contracts.originSettler,
      trailsRouterShimAddress: origin.contracts.destinationSettler,
    },
    expiresAt: iso(plan.deadlines.quoteExpiresAt),
    passthrough: false,
    intentProtocol: INTENT_PROTOCOL,
    // From the origin deadline anyone may call the account's refund (docs/contracts.md, "Refund paths").
    timedRefundUnlockTimestamp: Number(plan.deadlines.originDeadline),
    isTestnet: origin.isTestnet ?? false,
    createdAt: input.now.toISOString(),
    updatedAt: input.now.toISOString(),
  };
  if (plan.destination && destinationMetaTxn) {
    wire.destinationCalls = calls(plan.destination, DESTINATION_BEHAVIOR_ON_ERROR);
    wire.destinationPrecondition = precondition(plan.destination);
    wire.destinationMetaTxn = destinationMetaTxn;
  }
  return wire;
}

function depositTransaction(origin: ChainConfig, plan: ExecutionPlan): WireIntent['depositTransaction'] {
  const to = plan.origin.address;
  // The origin intent's strict deposit: the route's token, or a WITHDRAW's vault shares.
  const { depositToken: token, depositAmount: amount } = plan.origin.intent;
  const base = {
    toAddress: to,
    tokenAddress: token,
    amount,
    chainId: origin.chainId,
    decimals: plan.vaultExit?.shareDecimals ?? tokenDecimals(origin, token),
  };
  if (isAddressEqual(token, zeroAddress)) return { ...base, to, value: amount, data: '0x' };
  return { ...base, to: token, value: 0n, data: encodeTransfer([to, amount]) };
}

function calls(planned: PlannedIntent, behaviorOnError: number): WireCalls {
  return {
    chainId: Number(planned.intent.chainId),
    calls: planned.intent.calls.map((call) => ({
      to: call.target,
      value: call.value,
      data: call.data,
      // 0 = no per-call cap: the account forwards the gas left to each call.
      gasLimit: 0n,
      delegateCall: false,
      onlyFallback: false,
      behaviorOnError,
    })),
    // One nonce space; the salt is what makes each intent (and its address) unique.
    space: 0n,
    nonce: BigInt(planned.intent.salt),
  };
}

function precondition(planned: PlannedIntent): WireIntent['originPrecondition'] {
  const token = planned.intent.depositToken;
  return {
    type: isAddressEqual(token, zeroAddress) ? NATIVE_BALANCE : ERC20_BALANCE,
    chainId: Number(planned.intent.chainId),
    ownerAddress: planned.address,
    tokenAddress: token,
    minAmount: planned.intent.depositAmount,
  };
}

/** The transaction the operator sends: IntentFactory.deployIfNeededAndExecute(intent, 0x). */
function metaTxn(chain: ChainConfig, planned: PlannedIntent, bridgeGas: bigint): WireMetaTxn {
  const input: Hex = planned.executeCalldata ?? encodeDeployIfNeededAndExecute(planned.intent);
  return {
    id: keccak256(input),
    chainId: chain.chainId,
    walletAddress: planned.address,
    contract: chain.contracts.intentFactory,
    input,
    bridgeGas,
  };
}

function quote(plan: ExecutionPlan, intentId: string): WireIntent['quote'] {
  const { amounts, priceImpact: p } = plan;
  const part = (x: { priceImpact: number; priceImpactUsd: number }) => ({
    priceImpact: x.priceImpact,
    priceImpactUsd: x.priceImpactUsd,
  });
  return {
    routeProviders: plan.routeProviders,
    routeProvidersRequestIds: plan.routeProviders.map((_, i) => `${intentId}:${i}`),
    routeProvidersFeeUsd: plan.fees.providerFeesUsd,
    fromAmount: amounts.fromAmount,
    fromAmountMin: amounts.fromAmountMin,
    fromAmountUsd: amounts.fromAmountUsd,
    fromAmountMinUsd: amounts.fromAmountMinUsd,
    toAmount: amounts.toAmount,
    toAmountMin: amounts.toAmountMin,
    toAmountUsd: amounts.toAmountUsd,
    toAmountMinUsd: amounts.toAmountMinUsd,
    maxSlippage: plan.slippageTolerance,
    priceImpact: p.net.priceImpact,
    priceImpactUsd: p.net.priceImpactUsd,
    priceImpactDetails: {
      executionPriceImpact: part(p.execution),
      marketPriceImpact: part(p.market),
      providerFeesPriceImpact: part(p.providerFees),
      trailsFeesPriceImpact: part(p.serviceFees),
      netPriceImpact: part(p.net),
    },
    estimatedDuration: plan.estimatedDuration,
    swapRoutes: plan.swapRoutes?.map((route) => ({
      ...route,
      parts: route.parts.map((part) => ({
        ...part,
        tokens: [...part.tokens],
        pools: [...part.pools],
        fees: [...part.fees],
      })),
      alternatives: route.alternatives.map((a) => ({
        ...a,
        parts: a.parts.map((part) => ({ ...part, tokens: [...part.tokens], fees: [...part.fees] })),
      })),
    })),
  };
}

/** Gas of one chain: amounts in native wei (the client's unit for GasFee), USD as a numeric string. */
function gasFee(chain: ChainConfig, gas: ChainGas, metaTxnId: string): WireGasFee {
  return {
    chainId: chain.chainId,
    totalGasLimit: gas.gasLimit,
    gasPrice: gas.gasPrice,
    nativeTokenSymbol: chain.nativeCurrency.symbol,
    nativeTokenPriceUsd: gas.nativePriceUsd,
    chainGasUsageStatus: 'NORMAL',
    totalFeeAmount: gas.feeNative,
    totalFeeUsd: String(gas.feeUsd),
    metaTxnFeeDetails: { metaTxnId, estimatedGasLimit: gas.gasLimit, feeNative: gas.feeNative },
    // The same fee in the fee token's base units: what the origin account pays for this gas.
    metaTxnGasQuote: gas.feeAmount.toString(),
  };
}

function fees(
  plan: ExecutionPlan,
  origin: ChainConfig,
  destination: ChainConfig,
  originMetaTxnId: string,
  destinationMetaTxnId: string | undefined,
): WireIntent['fees'] {
  const f = plan.fees;
  const out: WireIntent['fees'] = {
    originGas: gasFee(origin, f.originGas, originMetaTxnId),
    provider: {
      quoteProvider: plan.routeProviders.join('+') || 'SWITCHYARD',
      quoteProviderFee: f.providerFee,
      quoteProviderFeeUsd: f.providerFeeUsd,
      trailsFee: f.serviceFee,
      trailsFeeUsd: f.serviceFeeUsd,
      quoteProviderWithTrailsFee: f.providerFee + f.serviceFee,
      providerWithTrailsFeeUsd: f.providerFeeUsd + f.serviceFeeUsd,
      totalFeeAmount: f.providerFee + f.serviceFee,
      totalFeeUsd: f.providerFeeUsd + f.serviceFeeUsd,
    },
    feeTokenAddress: f.feeToken as Address,
    // What the origin account transfers to the fee collector (gas + service fee).
    feeTokenAmount: f.collectorFee,
    feeTokenUsd: f.collectorFeeUsd,
    // Every fee of the route expressed in the fee token (collector transfer + provider fees).
    feeTokenTotal: f.totalFeeAmount,
    gasFeeTotal: f.gasFee,
    gasFeeUsd: f.gasFeeUsd,
    trailsFeeTotal: f.serviceFee,
    trailsFeeUsd: f.serviceFeeUsd,
    collectorFeeTotal: f.collectorFee,
    collectorFeeUsd: f.collectorFeeUsd,
    providerFeeTotal: f.providerFee,
    providerFeeUsd: f.providerFeeUsd,
    totalFeeAmount: f.totalFeeAmount,
    totalFeeUsd: f.totalFeeUsd,
  };
  if (f.destinationGas) {
    out.destinationGas = gasFee(destination, f.destinationGas, destinationMetaTxnId ?? originMetaTxnId);
  }
  return out;
}

export function buildGasFeeOptions(plan: ExecutionPlan, is2612: boolean[]): WireGasFeeOptions {
  const g = plan.gasFeeOptions;
  return {
    gasEstimate: {
      totalGas: Number(g.gasEstimate.totalGas),
      gasPrice: g.gasEstimate.gasPrice.toString(),
      nativeCost: g.gasEstimate.nativeCost.toString(),
      nativeCostUsd: g.gasEstimate.nativeCostUsd,
    },
    feeOptions: g.feeOptions.map((option, i) => ({ ...option, is2612: is2612[i] ?? false })),
    expiresAt: iso(g.expiresAt),
    feeCollectorAddress: g.feeCollectorAddress,
  };
}
