/**
 * QuoteIntent: normalise the request, build the execution plan, turn it into the quote document, and store
 * the intent as QUOTED with its encoded plan and the three UNKNOWN receipt rows (deposit, origin, destination).
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem';
import { type ChainFees, readChainFees } from '../../chains/chain-fees.ts';
import { createTtlMemo } from '../../chains/ttl-memo.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import { createPoolDirectory } from '../../providers/pool-directory.ts';
import type { Store } from '../../store/index.ts';
import { createMarketLookup, resolveMarkets } from '../../yield/index.ts';
import type { IntentDocument, Quote, QuoteRequest } from '../intent-document.ts';
import { buildExecutionPlan } from '../plan/build-execution-plan.ts';
import { QUOTE_FEE_CACHE_MS } from '../plan/constants.ts';
import type { ExecutionPlan, PlanDeps, PlanRequest } from '../plan/types.ts';
import { createVaultMode } from '../plan/vault-mode.ts';
import { encodePlan } from '../plan-codec.ts';
import { buildGasFeeOptions, buildWireIntent } from './build-wire-intent.ts';
import { checkQuoteOptions } from './check-quote-options.ts';
import { refusalOfPlan } from './refusal-of-plan.ts';
import { createPermitProbe } from './token-info.ts';
import type { IntentServicesDeps } from './types.ts';

/**
 * Bigints as decimal strings: what the store keeps and what the wire carries. A copy made in one walk
 * (the store serialises it once; a JSON round trip here would serialise it twice and parse it once).
 * Undefined members stay undefined, which JSON.stringify then leaves out, as before.
 */
export function toStoredJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toStoredJson);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) out[key] = toStoredJson(member);
  return out;
}

export function toPlanRequest(input: QuoteRequest, serviceFeeBps: bigint): PlanRequest {
  const hex = (value: string | undefined) => value as `0x${string}` | undefined;
  return {
    ownerAddress: input.ownerAddress as Address,
    originChainId: input.originChainId,
    originTokenAddress: input.originTokenAddress as Address,
    destinationChainId: input.destinationChainId,
    destinationTokenAddress: input.destinationTokenAddress as Address,
    originTokenAmount: input.originTokenAmount,
    destinationTokenAmount: input.destinationTokenAmount,
    tradeType: input.tradeType,
    destinationToAddress: hex(input.destinationToAddress),
    // The client sends "0x" when there is no call.
    destinationCallData:
      input.destinationCallData && input.destinationCallData !== '0x'
        ? hex(input.destinationCallData)
        : undefined,
    destinationCallValue: input.destinationCallValue,
    destinationApproveAddress: hex(input.destinationApproveAddress),
    onlyNativeGasFee: input.onlyNativeGasFee,
    slippageTolerance: input.options?.slippageTolerance,
    swapProvider: input.options?.swapProvider,
    bridgeProvider: input.options?.bridgeProvider,
    preference: input.options?.preference,
    mode: input.mode,
    earnMarketId: input.earnMarketId,
    serviceFeeBps,
  };
}

export function createQuoteIntent(
  deps: IntentServicesDeps,
  now: () => Date,
): (request: QuoteRequest, projectId: number) => Promise<Quote> {
  const chainById = new Map(deps.chains.map((c) => [c.chainId, c]));
  const getClient = (chainId: number) => {
    const client = deps.clients.get(chainId);
    if (!client) throw new Error(`no RPC client for configured chain ${chainId}`);
    return client;
  };
  const supportsPermit = createPermitProbe(getClient);
  const fees = createTtlMemo<number, ChainFees>(QUOTE_FEE_CACHE_MS);
  const planDeps: PlanDeps = {
    chains: deps.chains,
    getClient,
    getPriceUsd: (chainId, token) => deps.prices.getPriceUsd(chainId, token),
    operator: deps.operator,
    ...(deps.config?.settlementGraceSeconds !== undefined && {
      settlementGraceSeconds: deps.config.settlementGraceSeconds,
    }),
    nowSeconds: () => BigInt(Math.floor(now().getTime() / 1000)),
    ...(deps.inventory && { solverInventory: deps.inventory }),
    chainFees: (chainId) =>
      fees.get(chainId, () => {
        const client = getClient(chainId);
        return readChainFees(client, client.getBlock({ blockTag: 'latest' }));
      }),
    // One per service: quotes learn where pools are (and are not) from the quotes before them.
    poolDirectory: createPoolDirectory(),
  };
  const version = deps.config?.version ?? '0.1.0';
  const vaultMode = createVaultMode({ lookup: createMarketLookup(resolveMarkets(deps.chains)), getClient });

  return async (input, projectId) => {
    checkQuoteOptions(input);
    let plan: ExecutionPlan;
    let planned: PlanRequest;
    try {
      planned = await vaultMode(toPlanRequest(input, deps.config?.serviceFeeBps ?? 0n));
      plan = await buildExecutionPlan(planned, planDeps);
    } catch (error) {
      throw refusalOfPlan(error);
    }
    const origin = chainById.get(input.originChainId) as ChainConfig;
    const destination = chainById.get(input.destinationChainId) as ChainConfig;
    const intent = buildWireIntent({ request: input, plan, origin, destination, version, now: now() });
    // A gasless deposit signs a permit of the deposited token: a WITHDRAW deposits the vault's shares.
    const is2612 = await Promise.all(
      plan.gasFeeOptions.feeOptions.map((o) =>
        isAddressEqual(o.tokenAddress, zeroAddress)
          ? false
          : supportsPermit(origin.chainId, plan.vaultExit?.vault ?? o.tokenAddress),
      ),
    );
    await storeQuote(deps.store, projectId, intent, plan, planned.destinationTokenAddress, now());
    return { intent, gasFeeOptions: buildGasFeeOptions(plan, is2612) };
  };
}

async function storeQuote(
  store: Store,
  projectId: number,
  intent: IntentDocument,
  plan: ExecutionPlan,
  /** The token the route delivers: the request's, or an EARN's vault asset (the shares are the vault's). */
  destinationToken: string,
  createdAt: Date,
): Promise<void> {
  await store.intents.insert({
    intentId: intent.intentId,
    projectId,
    ownerAddress: intent.ownerAddress,
    originChainId: intent.originChainId,
    destinationChainId: intent.destinationChainId,
    originIntentAddress: intent.originIntentAddress,
    destinationIntentAddress: intent.destinationIntentAddress ?? intent.originIntentAddress,
    // What the owner deposits: the request's token, or a WITHDRAW's vault shares.
    originTokenAddress: plan.origin.intent.depositToken,
    originTokenAmount: plan.origin.intent.depositAmount,
    destinationTokenAddress: destinationToken,
    destinationTokenAmount: plan.amounts.toAmount,
    intent: toStoredJson(intent),
    planJson: encodePlan(plan),
    quoteExpiresAt: new Date(Number(plan.deadlines.quoteExpiresAt) * 1000),
    createdAt,
    // In the intent's own database transaction: one commit for the quote.
    transactions: receiptRows(intent, plan, destinationToken),
    // What the solver fills and is repaid: counted against its inventory once the intent is committed.
    solver: plan.order && {
      fillTokenAddress: plan.order.outputToken,
      fillAmount: plan.order.outputAmount,
      repaymentTokenAddress: plan.order.inputToken,
      repaymentAmount: plan.order.inputAmount,
    },
  });
}

/** The three receipt rows a fresh quote already has: what each transaction will move, status UNKNOWN. */
function receiptRows(intent: IntentDocument, plan: ExecutionPlan, destinationToken: string) {
  const base = { intentId: intent.intentId, status: 'UNKNOWN' as const };
  const deposit = {
    ...base,
    kind: 'deposit' as const,
    chainId: intent.originChainId,
    fromAddress: intent.ownerAddress,
    toAddress: intent.originIntentAddress,
    tokenAddress: intent.depositTransaction.tokenAddress,
    tokenAmount: plan.origin.intent.depositAmount,
  };
  const origin = {
    ...base,
    kind: 'origin' as const,
    chainId: intent.originChainId,
    fromAddress: plan.origin.intent.executor,
    toAddress: intent.originIntentAddress,
    tokenAddress: intent.depositTransaction.tokenAddress,
    tokenAmount: plan.origin.intent.depositAmount,
  };
  const final = plan.destination ?? plan.origin;
  const destination = {
    ...base,
    kind: 'destination' as const,
    chainId: intent.destinationChainId,
    fromAddress: final.address,
    toAddress: intent.quoteRequest.destinationToAddress ?? intent.ownerAddress,
    tokenAddress: destinationToken,
    tokenAmount: plan.amounts.toAmount,
  };
  return [deposit, origin, destination];
}
