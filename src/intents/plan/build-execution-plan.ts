/**
 * buildExecutionPlan: from a normalised quote request to everything QuoteIntent needs — the origin and
 * destination intents and their addresses, the settlement order, every amount, fees that add up, the
 * five-part price impact, gas fee options, providers per leg, deadlines and an estimated duration.
 * docs/routing.md describes the rules.
 */

import { randomBytes } from 'node:crypto';
import { type Address, bytesToHex, formatGwei, isAddressEqual, zeroAddress } from 'viem';
import { type ChainFees, currentGasPrice, readChainFees } from '../../chains/chain-fees.ts';
import type { TokenConfig } from '../../internal/config-types.ts';
import { SwitchyardError } from '../../internal/errors.ts';
import { UnsupportedRouteError } from '../../providers/errors.ts';
import { createSwitchyardBridgeProvider } from '../../providers/switchyard-bridge.ts';
import {
  type BridgeProvider,
  ProviderId,
  type SwapRouter,
  type TradeType,
  type WrapProvider,
} from '../../providers/types.ts';
import { createWethProvider } from '../../providers/weth.ts';
import { buildDestinationIntent, buildOriginIntent, type IntentContext } from './build-intents.ts';
import { checkTrustless, choosePlan, wantsAlternatives } from './choose-route.ts';
import {
  BPS,
  CROSS_CHAIN_DURATION_SECONDS,
  DEFAULT_SETTLEMENT_GRACE_SECONDS,
  DEFAULT_SLIPPAGE_TOLERANCE,
  DESTINATION_MIN_GAS_MARGIN,
  DESTINATION_WINDOW_SECONDS,
  EXECUTE_WINDOW_SECONDS,
  FILL_WINDOW_SECONDS,
  QUOTE_TTL_SECONDS,
  SAME_CHAIN_DURATION_SECONDS,
  VAULT_REDEEM_GAS,
} from './constants.ts';
import { createSwapRouter } from './create-swap-router.ts';
import {
  ExceedsMaximumError,
  GasAboveCapError,
  InvalidAmountError,
  MissingPriceError,
  withRequestField,
} from './errors.ts';
import { chainGas, destinationCallsGas, gasUnits, quotedGasPrice } from './fees.ts';
import { ceilDiv, convert, isUsablePrice, type Priced, slippageParts, usdValue } from './money.ts';
import { priceImpact } from './price-impact.ts';
import type { LegAmounts } from './quote-amounts.ts';
import {
  type PlanGas,
  type QuotedLegs,
  type QuoteLegsInput,
  quoteLegsExactInput,
  quoteLegsExactOutput,
} from './quote-legs.ts';
import { type RouteShape, resolveRoutes, type SwapLeg } from './resolve-route.ts';
import { swapLegProviders, swapRoutesOf } from './swap-routes.ts';
import type { ExecutionPlan, FeeOption, PlanDeps, PlanFees, PlanRequest } from './types.ts';
import { sizeVaultExit } from './vault-exit.ts';

type PricedToken = Priced & { address: Address; symbol: string };

export function inferTradeType(request: PlanRequest): TradeType {
  if (request.tradeType) return request.tradeType;
  return (request.destinationTokenAmount ?? 0n) > 0n ? 'EXACT_OUTPUT' : 'EXACT_INPUT';
}

export async function buildExecutionPlan(request: PlanRequest, deps: PlanDeps): Promise<ExecutionPlan> {
  checkProviders(request);
  const only =
    request.swapProvider && request.swapProvider !== 'AUTO'
      ? (request.swapProvider as ProviderId)
      : undefined;
  const providers: Providers = {
    swap: createSwapRouter({ getClient: deps.getClient, only, directory: deps.poolDirectory }),
    bridge: createSwitchyardBridgeProvider({
      getClient: deps.getClient,
      solver: deps.operator.solver,
      spreadBps: deps.solverSpreadBps,
      inventory: deps.solverInventory,
    }),
    weth: createWethProvider(),
  };
  // Gas fees depend on the chains alone: read beside the route's pool lookups, not after them.
  const gasPrices = readFees(request, deps);
  const { preference } = request;
  // Resolving the shapes reads every pool their swap legs could use (their state does not depend on the amount).
  const shapes = await resolveRoutes(
    request,
    { chains: deps.chains, swap: providers.swap, bridge: providers.bridge },
    wantsAlternatives(preference),
  );
  checkTrustless(preference, shapes[0]!.crossChain);
  const plans = await Promise.allSettled(
    shapes.map((shape) => planRoute(request, deps, providers, gasPrices, shape)),
  );
  return choosePlan(plans, preference);
}

interface Providers {
  swap: SwapRouter;
  bridge: BridgeProvider;
  weth: WrapProvider;
}

/** The plan of one route shape: its amounts from current on-chain state, its intents, fees and deadlines. */
async function planRoute(
  request: PlanRequest,
  deps: PlanDeps,
  { swap, bridge, weth }: Providers,
  gasPrices: Map<number, Promise<ChainFees>>,
  resolved: RouteShape,
): Promise<ExecutionPlan> {
  const tradeType = inferTradeType(request);
  const slippageTolerance = request.slippageTolerance ?? DEFAULT_SLIPPAGE_TOLERANCE;
  // The solver's inventory does not depend on the amounts: read while the gas prices come in.
  if (resolved.bridge) bridge.prefetch?.(resolved.destination, resolved.bridge.outputToken.address);
  const price = pricer(deps, priceField(resolved));
  // Prices are cached for seconds; on a miss each is a few pool reads, so the misses run side by side.
  // The destination token's price is awaited where it was before, so a refusal names the same cause.
  const destinationPrice = price(resolved.destination.chainId, resolved.destinationToken);
  destinationPrice.catch(() => {});
  const natives = [
    nativeOf(price, resolved.origin),
    resolved.crossChain ? nativeOf(price, resolved.destination) : undefined,
  ];
  for (const p of natives) p?.catch(() => {});
  const feeToken = await price(resolved.origin.chainId, resolved.originToken);
  const originNative = await natives[0]!;
  const destinationNative = await natives[1];
  // WITHDRAW: the origin's first call redeems the deposited shares.
  const originExtraGas = request.vaultExit ? VAULT_REDEEM_GAS : 0n;
  const slippage = slippageParts(slippageTolerance);
  const bps = request.serviceFeeBps ?? 0n;
  // A provider that cannot serve the amount does not know the request: the amount it was given is the field.
  const amountField = tradeType === 'EXACT_INPUT' ? 'originTokenAmount' : 'destinationTokenAmount';
  const naming = (error: unknown): never => {
    throw error instanceof SwitchyardError ? withRequestField(error, amountField) : error;
  };
  const legsInput: QuoteLegsInput = {
    shape: resolved,
    swap,
    bridge,
    slippage,
    gasOf: (s) => gasFor(s, gasPrices, feeToken, originNative, destinationNative, originExtraGas),
    legPrices: async (leg: SwapLeg) => ({
      gasPrice: quotedGasPrice(await gasPrices.get(leg.chain.chainId)!, leg.chain.maxFeePerGasWei),
      native: leg.chain === resolved.origin ? originNative : destinationNative!,
      tokenIn: await price(leg.chain.chainId, tokenOn(leg.chain, leg.tokenIn)),
    }),
  };

  let quoted: QuotedLegs;
  let serviceFee: bigint;
  let depositAmount: bigint;
  if (tradeType === 'EXACT_INPUT') {
    depositAmount = requirePositive(request.originTokenAmount, 'originTokenAmount', tradeType);
    serviceFee = (depositAmount * bps) / BPS;
    quoted = await quoteLegsExactInput(legsInput, depositAmount, serviceFee).catch(naming);
  } else {
    const wanted = requirePositive(request.destinationTokenAmount, 'destinationTokenAmount', tradeType);
    quoted = await quoteLegsExactOutput(legsInput, wanted).catch(naming);
    const { legs, gasFee } = quoted;
    serviceFee = ceilDiv(legs.routeInput * bps, BPS);
    depositAmount = legs.routeInput + serviceFee + gasFee;
    const cap = request.originTokenAmount ?? 0n;
    if (cap > 0n && depositAmount > cap) {
      throw new ExceedsMaximumError(
        `originTokenAmount: the route needs a deposit of ${depositAmount} base units of ${resolved.originToken.symbol}, which exceeds user-specified maximum ${cap}`,
        {
          details: { field: 'originTokenAmount', expected: depositAmount.toString(), actual: cap.toString() },
        },
      );
    }
  }
  const { shape, legs, gas, gasFee } = quoted;
  const collectorFee = serviceFee + gasFee;
  const vaultExit =
    request.vaultExit &&
    (await sizeVaultExit(request.vaultExit, depositAmount, deps.getClient(shape.origin.chainId)));

  const now = deps.nowSeconds?.() ?? BigInt(Math.floor(Date.now() / 1000));
  const quoteExpiresAt = now + QUOTE_TTL_SECONDS;
  const originDeadline = quoteExpiresAt + EXECUTE_WINDOW_SECONDS;
  const fillDeadline = originDeadline + FILL_WINDOW_SECONDS;
  const destinationDeadline = fillDeadline + DESTINATION_WINDOW_SECONDS;
  const ctx: IntentContext = {
    shape,
    legs,
    swap,
    weth,
    owner: request.ownerAddress,
    relayer: deps.operator.relayer,
    feeCollector: deps.operator.feeCollector,
    depositAmount,
    collectorFee,
    salt: deps.randomSalt?.() ?? bytesToHex(randomBytes(32)),
    originDeadline,
    fillDeadline,
    destinationDeadline,
    destinationMinGas: destinationCallsGas(shape) + DESTINATION_MIN_GAS_MARGIN,
    quotedDestinationAmount: request.destinationTokenAmount || legs.toAmount,
    vaultExit,
  };
  const destination = shape.crossChain ? buildDestinationIntent(ctx) : undefined;
  const { origin, order } = buildOriginIntent(ctx, destination);

  const destinationToken = await destinationPrice;
  const fees = await feesFor({ shape, legs, gas, gasFee, serviceFee, feeToken, price });
  const fromAmount = depositAmount;
  const fromAmountMin = tradeType === 'EXACT_INPUT' ? depositAmount : legs.expectedRouteInput + collectorFee;
  const spent = tradeType === 'EXACT_INPUT' ? depositAmount : fromAmountMin;
  const amounts = {
    depositAmount,
    fromAmount,
    fromAmountMin,
    toAmount: legs.toAmount,
    toAmountMin: legs.toAmountMin,
    fromAmountUsd: usdValue(fromAmount, feeToken),
    fromAmountMinUsd: usdValue(fromAmountMin, feeToken),
    toAmountUsd: usdValue(legs.toAmount, destinationToken),
    toAmountMinUsd: usdValue(legs.toAmountMin, destinationToken),
  };
  const executionLossUsd = await executionLoss(legs, shape, price);
  const settlementGrace = deps.settlementGraceSeconds ?? DEFAULT_SETTLEMENT_GRACE_SECONDS;
  return {
    tradeType,
    vaultExit,
    kind: shape.crossChain ? 'cross-chain' : 'same-chain',
    slippageTolerance,
    origin,
    destination,
    order,
    amounts,
    fees,
    priceImpact: priceImpact({
      fromUsd: usdValue(spent, feeToken),
      toUsd: amounts.toAmountUsd,
      executionLossUsd,
      providerFeesUsd: fees.providerFeeUsd,
      serviceFeesUsd: fees.collectorFeeUsd,
    }),
    routeProviders: providersOf(shape, legs),
    swapRoutes: swapRoutesOf(legs, shape),
    gasFeeOptions: gasFeeOptionsFor({
      request,
      fees,
      feeToken,
      quoteExpiresAt,
      collector: deps.operator.feeCollector,
    }),
    deadlines: {
      quoteExpiresAt,
      originDeadline,
      ...(shape.crossChain
        ? { fillDeadline, destinationDeadline, settlementRefundAt: fillDeadline + settlementGrace }
        : {}),
    },
    estimatedDuration: shape.crossChain ? CROSS_CHAIN_DURATION_SECONDS : SAME_CHAIN_DURATION_SECONDS,
  };
}

function requirePositive(amount: bigint | undefined, field: string, tradeType: TradeType): bigint {
  if (amount === undefined || amount <= 0n) {
    throw new InvalidAmountError(`${field}: must be a positive amount for ${tradeType}`, {
      details: { field },
    });
  }
  return amount;
}

/** Only built-in providers may be asked for; AUTO (or nothing) lets the builder pick. */
function checkProviders(request: PlanRequest): void {
  const allowed = {
    swapProvider: ['AUTO', ProviderId.UniswapV2, ProviderId.UniswapV3],
    bridgeProvider: ['AUTO', ProviderId.Switchyard],
  } as const;
  for (const name of ['swapProvider', 'bridgeProvider'] as const) {
    const asked = request[name];
    if (asked !== undefined && !(allowed[name] as readonly string[]).includes(asked)) {
      // The request carries both under `options`.
      const field = `options.${name}`;
      throw new UnsupportedRouteError(
        `${field}: ${asked} is not available on this server; use ${allowed[name].join(' or ')}`,
        { details: { field, actual: asked } },
      );
    }
  }
}

type Price = (
  chainId: number,
  token: Pick<TokenConfig, 'address' | 'decimals' | 'symbol'>,
) => Promise<PricedToken>;

function pricer(deps: PlanDeps, fieldOf: (chainId: number, token: Address) => string): Price {
  return async (chainId, token) => {
    const priceUsd = await deps.getPriceUsd(chainId, token.address);
    if (priceUsd === undefined || !isUsablePrice(priceUsd)) {
      const field = fieldOf(chainId, token.address);
      throw new MissingPriceError(
        `${field}: no USD price for ${token.symbol} (${token.address}) on chain ${chainId}`,
        { details: { field, chainId, token: token.address } },
      );
    }
    return { address: token.address, symbol: token.symbol, decimals: token.decimals, priceUsd };
  };
}

/**
 * The request field a missing price is about: the origin or destination token; the native currency of a
 * chain (gas) is its chain id; a token the route passes through was chosen for the destination token.
 */
function priceField(shape: RouteShape): (chainId: number, token: Address) => string {
  return (chainId, token) => {
    const on = (chain: RouteShape['origin'], listed: Address) =>
      chainId === chain.chainId && isAddressEqual(token, listed);
    if (on(shape.origin, shape.originToken.address)) return 'originTokenAddress';
    if (on(shape.destination, shape.destinationToken.address)) return 'destinationTokenAddress';
    if (on(shape.origin, zeroAddress)) return 'originChainId';
    if (on(shape.destination, zeroAddress)) return 'destinationChainId';
    return 'destinationTokenAddress';
  };
}

/**
 * Starts the fee reads of the request's chains (only configured ones: an unknown chain is refused by
 * resolveRoutes): the base fee and priority fee of the moment (at most QUOTE_FEE_CACHE_MS old when the
 * caller shares reads between quotes), or the legacy gas price.
 */
function readFees(request: PlanRequest, deps: PlanDeps): Map<number, Promise<ChainFees>> {
  const reads = new Map<number, Promise<ChainFees>>();
  for (const chainId of [request.originChainId, request.destinationChainId]) {
    if (reads.has(chainId) || !deps.chains.some((c) => c.chainId === chainId)) continue;
    const client = deps.getClient(chainId);
    const read = deps.chainFees
      ? deps.chainFees(chainId)
      : readChainFees(client, client.getBlock({ blockTag: 'latest' }));
    // A failed read surfaces where gasFor awaits it; a quote refused before that must not leave it unhandled.
    read.catch(() => {});
    reads.set(chainId, read);
  }
  return reads;
}

function tokenOn(chain: RouteShape['origin'], address: Address): TokenConfig {
  return chain.tokens.find((t) => isAddressEqual(t.address, address))!;
}

function nativeOf(price: Price, chain: RouteShape['origin']): Promise<PricedToken> {
  return price(chain.chainId, { ...chain.nativeCurrency, address: zeroAddress });
}

/** Refuses a quote on a chain whose fees are above its cap now: its transactions would wait until they fall. */
function underCap(chain: RouteShape['origin'], fees: ChainFees): ChainFees {
  const cap = chain.maxFeePerGasWei;
  const price = fees.type === 'legacy' ? fees.gasPrice : fees.baseFeePerGas;
  if (cap !== undefined && price > cap) {
    throw new GasAboveCapError(
      `gas on chain ${chain.chainId} costs ${formatGwei(currentGasPrice(fees))} gwei now, above this server's cap of ${formatGwei(cap)} gwei: transactions there wait until it falls; quote again later`,
      { details: { chainId: chain.chainId, gasPrice: currentGasPrice(fees), cap } },
    );
  }
  return fees;
}

async function gasFor(
  shape: RouteShape,
  gasPrices: Map<number, Promise<ChainFees>>,
  feeToken: PricedToken,
  originNative: PricedToken,
  destinationNative: PricedToken | undefined,
  originExtraGas: bigint,
) {
  const units = gasUnits(shape, originExtraGas);
  const [originPrice, destinationPrice] = await Promise.all([
    gasPrices.get(shape.origin.chainId)!,
    shape.crossChain ? gasPrices.get(shape.destination.chainId)! : undefined,
  ]);
  const origin = chainGas({
    fees: underCap(shape.origin, originPrice),
    cap: shape.origin.maxFeePerGasWei,
    chainId: shape.origin.chainId,
    gasLimit: units.origin,
    native: originNative,
    feeToken,
    feeTokenIsThisNative: isAddressEqual(feeToken.address, zeroAddress),
  });
  const destination =
    shape.crossChain && destinationPrice !== undefined && destinationNative
      ? chainGas({
          fees: underCap(shape.destination, destinationPrice),
          cap: shape.destination.maxFeePerGasWei,
          chainId: shape.destination.chainId,
          gasLimit: units.destination,
          native: destinationNative,
          feeToken,
          feeTokenIsThisNative: false,
        })
      : undefined;
  return { origin, destination };
}

async function feesFor(p: {
  shape: RouteShape;
  legs: LegAmounts;
  gas: PlanGas;
  gasFee: bigint;
  serviceFee: bigint;
  feeToken: PricedToken;
  price: Price;
}): Promise<PlanFees> {
  const { shape, legs, feeToken, price } = p;
  // Each provider entry's fee, in the fee token (the order of routeProviders); WETH legs cost nothing.
  const legFees: bigint[] = [];
  const swapFees = async (chain: RouteShape['origin'], quote: NonNullable<LegAmounts['originSwap']>) => {
    const tokenIn = await price(chain.chainId, tokenOn(chain, quote.tokenIn));
    for (const entry of swapLegProviders(quote)) legFees.push(convert(entry.feeAmount, tokenIn, feeToken));
  };
  if (shape.wrapOnOrigin) legFees.push(0n);
  if (legs.originSwap) await swapFees(shape.origin, legs.originSwap);
  if (legs.bridge) {
    const bridged = await price(shape.origin.chainId, shape.bridge!.inputToken);
    legFees.push(convert(legs.bridge.feeAmount, bridged, feeToken));
  }
  if (legs.destinationSwap) await swapFees(shape.destination, legs.destinationSwap);
  if (shape.unwrapAtEnd) legFees.push(0n);
  const providerFee = legFees.reduce((a, b) => a + b, 0n);
  const usd = (amount: bigint) => usdValue(amount, feeToken);
  const collectorFee = p.gasFee + p.serviceFee;
  const totalFeeAmount = collectorFee + providerFee;
  return {
    feeToken: feeToken.address,
    originGas: p.gas.origin,
    destinationGas: p.gas.destination,
    gasFee: p.gasFee,
    gasFeeUsd: usd(p.gasFee),
    providerFee,
    providerFeeUsd: usd(providerFee),
    providerFeesUsd: legFees.map(usd),
    serviceFee: p.serviceFee,
    serviceFeeUsd: usd(p.serviceFee),
    collectorFee,
    collectorFeeUsd: usd(collectorFee),
    totalFeeAmount,
    totalFeeUsd: usd(totalFeeAmount),
  };
}

/** Value lost to pool depth (beyond the LP fee) in each swap, in USD at the output token's price. */
async function executionLoss(legs: LegAmounts, shape: RouteShape, price: Price): Promise<number> {
  let loss = 0;
  for (const [quote, chain] of [
    [legs.originSwap, shape.origin],
    [legs.destinationSwap, shape.destination],
  ] as const) {
    if (!quote) continue;
    const out = chain.tokens.find((t) => isAddressEqual(t.address, quote.tokenOut))!;
    const priced = await price(chain.chainId, out);
    loss += usdValue(
      quote.spotAmountOut > quote.amountOut ? quote.spotAmountOut - quote.amountOut : 0n,
      priced,
    );
  }
  return loss;
}

/** Per leg in route order; a swap leg names each protocol its route uses (largest part first). */
function providersOf(shape: RouteShape, legs: LegAmounts): ProviderId[] {
  const out: ProviderId[] = [];
  if (shape.wrapOnOrigin) out.push(ProviderId.Weth);
  if (legs.originSwap) out.push(...swapLegProviders(legs.originSwap).map((e) => e.provider));
  if (shape.bridge) out.push(ProviderId.Switchyard);
  if (legs.destinationSwap) out.push(...swapLegProviders(legs.destinationSwap).map((e) => e.provider));
  if (shape.unwrapAtEnd) out.push(ProviderId.Weth);
  return out;
}

function gasFeeOptionsFor(p: {
  request: PlanRequest;
  fees: PlanFees;
  feeToken: PricedToken;
  quoteExpiresAt: bigint;
  collector: Address;
}): ExecutionPlan['gasFeeOptions'] {
  const { fees, feeToken } = p;
  const nativeCost = fees.originGas.feeNative + (fees.destinationGas?.feeNative ?? 0n);
  const options: FeeOption[] = [];
  const option = (tokenAddress: Address, symbol: string, decimals: number, amount: bigint): FeeOption => ({
    tokenAddress,
    tokenSymbol: symbol,
    tokenDecimals: decimals,
    amount,
    amountUsd: fees.gasFeeUsd,
    feeCollectorAddress: p.collector,
  });
  const originIsNative = isAddressEqual(feeToken.address, zeroAddress);
  if (!p.request.onlyNativeGasFee && !originIsNative) {
    options.push(option(feeToken.address, feeToken.symbol, feeToken.decimals, fees.gasFee));
  }
  options.push(option(zeroAddress, 'ETH', 18, originIsNative ? fees.gasFee : nativeCost));
  return {
    gasEstimate: {
      totalGas: fees.originGas.gasLimit + (fees.destinationGas?.gasLimit ?? 0n),
      gasPrice: fees.originGas.gasPrice,
      nativeCost,
      nativeCostUsd: fees.gasFeeUsd,
    },
    feeOptions: options,
    feeCollectorAddress: p.collector,
    expiresAt: p.quoteExpiresAt,
  };
}
