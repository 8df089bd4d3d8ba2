/**
 * GetTrailsContracts (GetServiceContracts): our contract addresses, which are identical on every
 * chain (CREATE2). The client's three names map onto Switchyard's contracts as follows:
 * trailsIntentEntrypointAddress → IntentFactory (creates and calls intent accounts),
 * trailsRouterAddress → OriginSettler, trailsRouterShimAddress → DestinationSettler.
 */
import { zeroAddress } from 'viem';
import type { ApiDeps, Handler } from '../context.ts';

export function createGetTrailsContracts(deps: ApiDeps): Handler<'GetTrailsContracts'> {
  const c = deps.chains[0]?.contracts;
  const answer = {
    TrailsContracts: {
      trailsIntentEntrypointAddress: c?.intentFactory ?? zeroAddress,
      trailsRouterAddress: c?.originSettler ?? zeroAddress,
      trailsRouterShimAddress: c?.destinationSettler ?? zeroAddress,
    },
  };
  return () => answer;
}
