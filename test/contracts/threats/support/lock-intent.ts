/**
 * An origin intent that locks its whole deposit of any token in the OriginSettler (approve + open, with the
 * depositor and input amount filled at run time), for threats that need an unusual token on the lock path
 * (re-entrant, fee-on-transfer). `route.ts` builds the USDC route the server uses; this is its one-token core.
 */
import type { Address } from 'viem';
import type { Intent, OrderData } from '../../../../src/contracts/types.ts';
import type { TestChain } from '../../../harness/chain.ts';
import { accountAddress, lockCalls } from '../../route.ts';
import { randomSalt, userIntent, ZERO } from './fixture.ts';

/** Index of the `open` call in a lock intent (after the approve). */
export const LOCK_OPEN_CALL = 1;

export interface LockIntent {
  intent: Intent;
  account: Address;
  /** The order as committed; `opened(amount)` is what `open` records. */
  template: OrderData;
  opened(inputAmount: bigint): OrderData;
}

export function lockIntent(
  chain: TestChain,
  p: { token: Address; depositAmount: bigint; outputAmount: bigint; deadline: bigint; recipient: Address },
): LockIntent {
  const user = chain.accounts.user.address;
  const settler = chain.contracts.originSettler;
  const salt = randomSalt();
  const template: OrderData = {
    depositor: ZERO,
    refundRecipient: user,
    inputToken: p.token,
    inputAmount: 0n,
    destChainId: BigInt(chain.chainId),
    destSettler: chain.contracts.destinationSettler,
    outputToken: p.token,
    outputAmount: p.outputAmount,
    recipient: p.recipient,
    fillDeadline: p.deadline,
    nonce: salt,
  };
  const intent = userIntent(chain, {
    deadline: p.deadline,
    salt,
    depositToken: p.token,
    depositAmount: p.depositAmount,
    calls: lockCalls(p.token, settler, template),
  });
  const { address: account } = accountAddress(chain, intent);
  return {
    intent,
    account,
    template,
    opened: (inputAmount) => ({ ...template, depositor: account, inputAmount }),
  };
}
