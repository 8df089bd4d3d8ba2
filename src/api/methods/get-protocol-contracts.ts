/**
 * GetProtocolContracts, the successor of GetTrailsContracts (which stays for old clients): the contracts of an
 * intent protocol, by the reference's names. Switchyard's one protocol maps them as GetTrailsContracts does,
 * plus `trailsUtilsAddress` → the IntentAccount implementation: the code every intent account runs by
 * delegation (execute, refund, recover), as the reference's wallets delegate to its utils contract.
 */
import { zeroAddress } from 'viem';
import type { ApiDeps, Handler } from '../context.ts';
import { InvalidArgumentError } from '../errors/rpc-errors.ts';
import { INTENT_PROTOCOL, SUPPORTED_INTENT_PROTOCOLS } from './intent-protocol.ts';
import { toWireTrailsContracts } from './to-wire-trails-contracts.ts';

export function createGetProtocolContracts(deps: ApiDeps): Handler<'GetProtocolContracts'> {
  const c = deps.chains[0]?.contracts;
  const answer = {
    TrailsContracts: {
      ...toWireTrailsContracts(c),
      trailsUtilsAddress: c?.intentAccountImplementation ?? zeroAddress,
    },
  };
  return ({ intentProtocol }) => {
    if (intentProtocol !== undefined && !SUPPORTED_INTENT_PROTOCOLS.includes(intentProtocol)) {
      throw new InvalidArgumentError(
        'intentProtocol',
        `must be ${INTENT_PROTOCOL}, the one intent protocol this server runs (got "${intentProtocol}")`,
      );
    }
    return answer;
  };
}
