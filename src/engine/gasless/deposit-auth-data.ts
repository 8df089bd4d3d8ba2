/**
 * The `authData` the origin execution carries for a gasless deposit: kind 1 (EIP-2612 permit) or kind 2
 * (EIP-3009 receiveWithAuthorization), built from the entry stored at ExecuteIntent; `0x` for a plain
 * transfer. Rebuilt on every fresh send, so a restarted engine relays the same bytes.
 */
import type { Hex } from 'viem';
import {
  depositAuthorizationNonce,
  encodePermitAuthData,
  encodeReceiveAuthData,
} from '../../contracts/auth-data.ts';
import type { EngineContext, StepInput } from '../context.ts';
import { isReceiveAuthorization } from './classify-authorization.ts';
import type { DepositIntentEntry } from './deposit-intent-entry.ts';
import { readTokenDomain } from './token-domain.ts';

/** `entry`: the intent's gasless entry as the step read it (readDepositIntentEntry). */
export async function depositAuthData(
  ctx: EngineContext,
  { plan }: StepInput,
  entry: DepositIntentEntry | undefined,
): Promise<Hex> {
  if (!entry?.permitSignature || entry.permitDeadline === undefined) return '0x';
  const o = plan.origin.intent;
  const { client } = ctx.chain(o.chainId);
  const subject = {
    signature: entry.permitSignature,
    owner: o.owner,
    account: plan.origin.address,
    token: o.depositToken,
    domain: await readTokenDomain(client, o.depositToken),
    chainId: o.chainId,
    amount: o.depositAmount,
    deadline: BigInt(entry.permitDeadline),
    intentHash: plan.origin.hash,
  };
  if (await isReceiveAuthorization(subject)) {
    return encodeReceiveAuthData({
      validAfter: 0n,
      validBefore: subject.deadline,
      nonce: depositAuthorizationNonce(plan.origin.hash),
      signature: entry.permitSignature,
    });
  }
  return encodePermitAuthData({ deadline: subject.deadline, signature: entry.permitSignature });
}
