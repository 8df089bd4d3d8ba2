/**
 * The official client's TrailsContracts from Switchyard's contracts, which are identical on every chain
 * (CREATE2): trailsIntentEntrypointAddress → IntentFactory (creates and calls intent accounts),
 * trailsRouterAddress → OriginSettler, trailsRouterShimAddress → DestinationSettler. The zero address where
 * no chain is configured.
 */
import { zeroAddress } from 'viem';
import type { SwitchyardContracts } from '../../internal/config-types.ts';

export function toWireTrailsContracts(c: SwitchyardContracts | undefined) {
  return {
    trailsIntentEntrypointAddress: c?.intentFactory ?? zeroAddress,
    trailsRouterAddress: c?.originSettler ?? zeroAddress,
    trailsRouterShimAddress: c?.destinationSettler ?? zeroAddress,
  };
}
