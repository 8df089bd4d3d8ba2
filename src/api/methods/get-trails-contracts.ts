/**
 * GetTrailsContracts (GetServiceContracts): our contract addresses, which are identical on every chain
 * (CREATE2), by the client's three names (to-wire-trails-contracts.ts says which contract each is).
 */
import type { ApiDeps, Handler } from '../context.ts';
import { toWireTrailsContracts } from './to-wire-trails-contracts.ts';

export function createGetTrailsContracts(deps: ApiDeps): Handler<'GetTrailsContracts'> {
  const answer = { TrailsContracts: toWireTrailsContracts(deps.chains[0]?.contracts) };
  return () => answer;
}
