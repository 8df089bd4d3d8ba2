/** Errors a provider raises while quoting; the API maps each to InvalidArgument (2000) with this message. */
import { type Address, formatUnits } from 'viem';
import { SwitchyardError } from '../internal/errors.ts';

/** No provider connects the two tokens (no pool path, no bridgeable token, a provider that is not built in). */
export class UnsupportedRouteError extends SwitchyardError {
  override readonly name = 'UnsupportedRouteError';
}

/** The pools or the solver's inventory cannot serve the amount. */
export class InsufficientLiquidityError extends SwitchyardError {
  override readonly name: string = 'InsufficientLiquidityError';
}

/** The solver's inventory of one token on one chain: its balance, what open orders hold of it, what is left. */
export interface InventoryView {
  balance: bigint;
  held: bigint;
  /** balance − held, or 0 when the holds exceed the balance. */
  available: bigint;
}

/**
 * The solver cannot fill the amount from what it holds now on the destination chain, after what open orders
 * hold of it. A kind of InsufficientLiquidityError, with the numbers a caller needs (base units in details).
 */
export class InsufficientInventoryError extends InsufficientLiquidityError {
  override readonly name = 'InsufficientInventoryError';
  constructor(
    readonly chainId: number,
    readonly token: { address: Address; symbol: string; decimals: number },
    readonly inventory: InventoryView,
    readonly required: bigint,
  ) {
    const units = (amount: bigint) => `${formatUnits(amount, token.decimals)} ${token.symbol}`;
    super(
      `solver inventory is short on chain ${chainId}: the solver holds ${units(inventory.balance)} there, ` +
        `${units(inventory.held)} of it held by open orders, so ${units(inventory.available)} (token ${token.address}) ` +
        `is available now; the route needs ${units(required)}`,
      {
        details: {
          chainId,
          token: token.address,
          balance: inventory.balance.toString(),
          held: inventory.held.toString(),
          available: inventory.available.toString(),
          required: required.toString(),
        },
      },
    );
  }
}
