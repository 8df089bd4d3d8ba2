/**
 * Refuses a recipient that would burn what the intent delivers: the zero address as the owner (who receives
 * refunds, and the output when no destinationToAddress is given) or as the recipient or call target, and,
 * for a plain transfer, any contract this server knows on the destination chain (a listed token, its own
 * settlers and factory, the router, WETH, a vault): a token sent there by transfer cannot be taken out again.
 * A call may target a contract (the official SDK calls the token's `transfer` through destinationCallData).
 */
import { type Address, isAddressEqual, zeroAddress } from 'viem';
import type { ChainConfig } from '../../internal/config-types.ts';
import { BurningRecipientError } from './errors.ts';
import type { PlanRequest } from './types.ts';

export function checkRecipient(request: PlanRequest, destination: ChainConfig, hasCall: boolean): void {
  if (isAddressEqual(request.ownerAddress, zeroAddress)) {
    throw burning('ownerAddress', 'is the zero address; the owner receives refunds, so they would be burnt');
  }
  const field = request.destinationToAddress === undefined ? 'ownerAddress' : 'destinationToAddress';
  const recipient = request.destinationToAddress ?? request.ownerAddress;
  if (isAddressEqual(recipient, zeroAddress)) {
    throw burning(field, 'is the zero address; what the intent delivers there is burnt');
  }
  if (hasCall) return;
  const contract = knownContract(destination, recipient);
  if (contract !== undefined) {
    throw burning(
      field,
      `${recipient} is ${contract} on chain ${destination.chainId}; tokens transferred there cannot be taken out again (send to a wallet, or give destinationCallData to call the contract)`,
    );
  }
}

function knownContract(chain: ChainConfig, address: Address): string | undefined {
  const token = chain.tokens.find((t) => isAddressEqual(t.address, address));
  if (token && !isAddressEqual(token.address, zeroAddress)) return `the ${token.symbol} token contract`;
  for (const [name, contract] of Object.entries(chain.contracts)) {
    if (contract !== undefined && isAddressEqual(contract, address)) return `the ${name} contract`;
  }
  const vault = chain.yieldMarkets?.find((m) => isAddressEqual(m.vault, address));
  return vault ? `the yield vault contract ${vault.name ?? ''}`.trimEnd() : undefined;
}

function burning(field: string, problem: string): BurningRecipientError {
  return new BurningRecipientError(`${field}: ${problem}`, { details: { field } });
}
