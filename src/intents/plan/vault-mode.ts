/**
 * QuoteIntent's EARN and WITHDRAW modes, turned into what the planner already knows, so a client never
 * composes vault calldata:
 *
 * - **EARN** ends in a vault on the destination chain. The market is `earnMarketId`, or the vault named by
 *   `destinationTokenAddress` (the share token the owner ends with). The route delivers the vault's
 *   underlying token, and the destination call is `deposit(<all that arrived>, receiver)` on the vault after
 *   approving it: the receiver is `destinationToAddress` when given, else the owner. Without a market and
 *   with `destinationCallData`, EARN is the caller's own call, as before.
 * - **WITHDRAW** starts from a vault on the origin chain. The market is `earnMarketId`, or the vault named by
 *   `originTokenAddress` (the share token the owner deposits). The deposit is shares, the origin's first call
 *   redeems them into the underlying (`vaultExit`, built by build-intents.ts), and the route carries the
 *   underlying on from there. EXACT_INPUT: `originTokenAmount` is shares (default: every share the owner
 *   holds) and the route spends what they redeem for now (`previewRedeem`); EXACT_OUTPUT: the plan sizes the
 *   shares for the deposit it needs (`previewWithdraw`), and an `originTokenAmount` cap is in shares.
 *
 * Every other mode (SWAP, FUND, PAY) plans the request as it is.
 */
import { type Address, encodeFunctionData, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { InvalidInputError } from '../../internal/errors.ts';
import type { MarketConfig, MarketLookup } from '../../yield/index.ts';
import { readVault, vaultAbi } from '../../yield/index.ts';
import { inferTradeType } from './build-execution-plan.ts';
import { AMOUNT_PLACEHOLDER } from './constants.ts';
import type { PlanRequest } from './types.ts';

export interface VaultModeDeps {
  lookup: MarketLookup;
  getClient(chainId: number): PublicClient;
}

interface VaultFacts {
  asset: Address;
  shareDecimals: number;
}

export function createVaultMode(deps: VaultModeDeps): (request: PlanRequest) => Promise<PlanRequest> {
  // A vault's asset and decimals never change: read once per configured market this process quotes.
  const facts = new Map<string, Promise<VaultFacts>>();
  const factsOf = (market: MarketConfig): Promise<VaultFacts> => {
    let known = facts.get(market.id);
    if (!known) {
      known = readFacts(deps.getClient(market.chainId), market.vault);
      known.catch(() => facts.delete(market.id));
      facts.set(market.id, known);
    }
    return known;
  };
  return async (request) => {
    if (request.mode === 'EARN') return earn(deps, request, factsOf);
    if (request.mode === 'WITHDRAW') return withdraw(deps, request, factsOf);
    return request;
  };
}

type FactsOf = (market: MarketConfig) => Promise<VaultFacts>;

async function earn(deps: VaultModeDeps, request: PlanRequest, factsOf: FactsOf): Promise<PlanRequest> {
  const chainId = request.destinationChainId;
  const market = marketFor(deps, request, chainId, request.destinationTokenAddress, 'destination');
  if (!market) {
    if (request.destinationCallData) return request;
    throw new InvalidInputError(
      'earnMarketId',
      'is required for mode EARN: name the market (YieldGetMarkets), give its vault as destinationTokenAddress, or give your own destinationCallData',
    );
  }
  if (request.destinationCallData) {
    throw new InvalidInputError(
      'destinationCallData',
      `must be left out in mode EARN with a market: the deposit into ${market.id} is built here`,
    );
  }
  const { asset } = await factsOf(market);
  checkToken(request.destinationTokenAddress, market, asset, 'destinationTokenAddress');
  const named = request.destinationToAddress;
  const receiver = named && !isAddressEqual(named, market.vault) ? named : request.ownerAddress;
  if (isAddressEqual(receiver, zeroAddress)) {
    throw new InvalidInputError(
      'destinationToAddress',
      'is the zero address; the vault shares would be burnt',
    );
  }
  return {
    ...request,
    destinationTokenAddress: asset,
    destinationToAddress: market.vault,
    destinationApproveAddress: market.vault,
    // The placeholder amount is filled at execution with everything that arrived (destination-call.ts).
    destinationCallData: encodeFunctionData({
      abi: vaultAbi,
      functionName: 'deposit',
      args: [BigInt(AMOUNT_PLACEHOLDER), receiver],
    }),
    destinationCallValue: 0n,
  };
}

async function withdraw(deps: VaultModeDeps, request: PlanRequest, factsOf: FactsOf): Promise<PlanRequest> {
  const chainId = request.originChainId;
  const market = marketFor(deps, request, chainId, request.originTokenAddress, 'origin');
  if (!market) {
    throw new InvalidInputError(
      'earnMarketId',
      "is required for mode WITHDRAW: name the market (YieldGetMarkets), or give its vault's share token as originTokenAddress",
    );
  }
  const { asset, shareDecimals } = await factsOf(market);
  checkToken(request.originTokenAddress, market, asset, 'originTokenAddress');
  const client = deps.getClient(chainId);
  const routed = { ...request, originTokenAddress: asset };
  if (inferTradeType(request) === 'EXACT_OUTPUT') {
    const cap = request.originTokenAmount;
    return {
      ...routed,
      tradeType: 'EXACT_OUTPUT',
      originTokenAmount: cap ? await readVault(client, market.vault, 'previewRedeem', cap) : cap,
      vaultExit: { vault: market.vault, shareDecimals },
    };
  }
  const shares =
    request.originTokenAmount || (await readVault(client, market.vault, 'balanceOf', request.ownerAddress));
  if (shares === 0n) {
    throw new InvalidInputError(
      'originTokenAmount',
      `is required: ${request.ownerAddress} holds no shares of ${market.id}, so there is nothing to withdraw by default`,
    );
  }
  const assets = await readVault(client, market.vault, 'previewRedeem', shares);
  if (assets === 0n) {
    throw new InvalidInputError('originTokenAmount', `${shares} shares of ${market.id} redeem for nothing`);
  }
  return {
    ...routed,
    tradeType: 'EXACT_INPUT',
    originTokenAmount: assets,
    vaultExit: { vault: market.vault, shareDecimals, shares },
  };
}

/** The market the request names by id (on `chainId`), else the one whose vault is `token` there. */
function marketFor(
  deps: VaultModeDeps,
  request: PlanRequest,
  chainId: number,
  token: Address,
  side: 'origin' | 'destination',
): MarketConfig | undefined {
  if (request.earnMarketId === undefined) return deps.lookup.byVault(chainId, token);
  const market = deps.lookup.byId(request.earnMarketId);
  if (market.chainId !== chainId) {
    throw new InvalidInputError(
      'earnMarketId',
      `market ${market.id} is on chain ${market.chainId}, not on the ${side} chain ${chainId}`,
    );
  }
  return market;
}

function checkToken(token: Address, market: MarketConfig, asset: Address, field: string): void {
  if (isAddressEqual(token, asset) || isAddressEqual(token, market.vault)) return;
  throw new InvalidInputError(
    field,
    `must be the market's token ${asset} or its vault ${market.vault} (market ${market.id}), not ${token}`,
  );
}

async function readFacts(client: PublicClient, vault: Address): Promise<VaultFacts> {
  const [asset, shareDecimals] = await Promise.all([
    client.readContract({ address: vault, abi: vaultAbi, functionName: 'asset' }),
    client.readContract({ address: vault, abi: vaultAbi, functionName: 'decimals' }),
  ]);
  return { asset, shareDecimals };
}
