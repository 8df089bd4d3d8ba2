/**
 * What a holder paid for the shares they hold, from the vault's own events (average cost):
 *
 * - `Deposit(owner = holder)` adds its `assets` to the basis and its `shares` to the holding;
 * - `Withdraw(owner = holder)` and a share `Transfer` away from the holder take their shares out, and the
 *   basis falls in proportion (the shares that leave carry their average cost with them);
 * - a share `Transfer` to the holder (from another holder, not a mint) adds shares whose cost is not in the
 *   logs: they are counted at what they are worth now, so they add nothing to "earned" (never overstated);
 * - mints and burns (`Transfer` from or to the zero address) are the deposits' and withdrawals' own share
 *   movements, already counted by their Deposit and Withdraw events; a transfer to oneself changes nothing.
 *
 * When the shares the events add up to differ from the holder's balance (a vault that mints without a
 * Deposit event, or logs that start after the first deposit), the basis is unknown: undefined.
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem';

export type ShareEvent =
  | { kind: 'deposit'; owner: Address; assets: bigint; shares: bigint }
  | { kind: 'withdraw'; owner: Address; assets: bigint; shares: bigint }
  | { kind: 'transfer'; from: Address; to: Address; shares: bigint };

export interface Position {
  shares: bigint;
  /** Base units of the underlying the shares are worth now. */
  value: bigint;
}

/** Base units of the underlying paid for the shares held now, or undefined when the events do not account for them. */
export function costBasis(holder: Address, events: readonly ShareEvent[], now: Position): bigint | undefined {
  let shares = 0n;
  let basis = 0n;
  const remove = (removed: bigint) => {
    if (shares === 0n) return;
    basis -= (basis * (removed < shares ? removed : shares)) / shares;
    shares = removed < shares ? shares - removed : 0n;
  };
  for (const event of events) {
    if (event.kind === 'deposit' && isAddressEqual(event.owner, holder)) {
      shares += event.shares;
      basis += event.assets;
    } else if (event.kind === 'withdraw' && isAddressEqual(event.owner, holder)) {
      remove(event.shares);
    } else if (event.kind === 'transfer') {
      const { from, to } = event;
      if ([from, to].some((a) => isAddressEqual(a, zeroAddress)) || isAddressEqual(from, to)) continue;
      if (isAddressEqual(event.from, holder)) remove(event.shares);
      if (isAddressEqual(event.to, holder) && now.shares > 0n) {
        shares += event.shares;
        basis += (event.shares * now.value) / now.shares;
      }
    }
  }
  return shares === now.shares ? basis : undefined;
}
