/**
 * SWITCHYARD: our own lock → fill → settle bridge. The origin account locks `inputAmount` in the
 * OriginSettler; the operator's solver pays `outputAmount` from its inventory on the destination chain and
 * is repaid `inputAmount` after the attester signs the fill. The provider fee is the solver spread
 * `inputAmount − outputAmount`.
 */
import { type Address, erc20Abi, isAddressEqual, type PublicClient } from 'viem';
import type { ChainConfig } from '../internal/config-types.ts';
import { createContractRead } from './contract-read.ts';
import { InsufficientInventoryError, type InventoryView } from './errors.ts';
import { FILL_GAS, LOCK_GAS, SETTLE_GAS } from './gas.ts';
import { type BridgeProvider, ProviderId } from './types.ts';

/**
 * The solver's spread: 5 bps (0.05 %) of the locked amount. It pays for the solver's capital being tied up
 * between fill and settlement and for inventory rebalancing; comparable intent bridges charge a few bps.
 */
export const SOLVER_SPREAD_BPS = 5n;
const BPS = 10_000n;

const readBalance = createContractRead(erc20Abi, 'balanceOf');

/** The solver's inventory net of what open orders hold (src/solver/create-solver-inventory.ts). */
export interface InventorySource {
  available(chainId: number, token: Address): Promise<InventoryView>;
}

export interface SwitchyardBridgeDeps {
  getClient(chainId: number): PublicClient;
  /** The solver whose inventory fills orders on the destination chain. */
  solver: Address;
  /** Its inventory net of open orders' holds; absent: its balance alone (nothing held). */
  inventory?: InventorySource | undefined;
  /** Spread in bps; defaults to SOLVER_SPREAD_BPS. */
  spreadBps?: bigint;
}

export function createSwitchyardBridgeProvider(deps: SwitchyardBridgeDeps): BridgeProvider {
  const spreadBps = deps.spreadBps ?? SOLVER_SPREAD_BPS;
  const hasSettlers = (c: ChainConfig) =>
    Boolean(c.contracts.originSettler && c.contracts.destinationSettler);
  // One read per (chain, token) for the provider's life: a provider is built per quote, and prefetch()
  // lets the read start before the amount is known.
  const inventories = new Map<string, Promise<InventoryView>>();
  const inventoryOf = (chain: ChainConfig, token: Address): Promise<InventoryView> => {
    const key = `${chain.chainId}:${token.toLowerCase()}`;
    let read = inventories.get(key);
    if (!read) {
      read = deps.inventory
        ? deps.inventory.available(chain.chainId, token)
        : readBalance(deps.getClient(chain.chainId), token, [deps.solver]).then((balance) => ({
            balance,
            held: 0n,
            available: balance,
          }));
      inventories.set(key, read);
    }
    return read;
  };
  return {
    id: ProviderId.Switchyard,
    supports: (origin, destination) =>
      origin.chainId !== destination.chainId && hasSettlers(origin) && hasSettlers(destination),
    prefetch(destinationChain, outputToken) {
      // A failed read surfaces when quote() awaits it; until then it must not count as unhandled.
      inventoryOf(destinationChain, outputToken).catch(() => {});
    },
    async quote(request) {
      const { tradeType, amount } = request;
      // Spread rounds in the solver's favour by at most one base unit, so a fill never runs at a loss.
      const inputAmount = tradeType === 'EXACT_INPUT' ? amount : ceilDiv(amount * BPS, BPS - spreadBps);
      const outputAmount = tradeType === 'EXACT_INPUT' ? (amount * (BPS - spreadBps)) / BPS : amount;
      const chain = request.destinationChain;
      const inventory = await inventoryOf(chain, request.outputToken);
      if (inventory.available < outputAmount) {
        const listed = chain.tokens.find((t) => isAddressEqual(t.address, request.outputToken));
        const token = listed ?? { address: request.outputToken, symbol: request.outputToken, decimals: 0 };
        throw new InsufficientInventoryError(chain.chainId, token, inventory, outputAmount);
      }
      return {
        provider: ProviderId.Switchyard,
        inputToken: request.inputToken,
        outputToken: request.outputToken,
        inputAmount,
        outputAmount,
        feeAmount: inputAmount - outputAmount,
        originGasEstimate: LOCK_GAS + SETTLE_GAS,
        destinationGasEstimate: FILL_GAS,
      };
    },
  };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
