/**
 * An origin intent that locks its whole deposit of any token in the OriginSettler (approve + open, with the
 * depositor and input amount filled at run time), for threats that need an unusual token on the lock path
 * (re-entrant, fee-on-transfer). `route.ts` builds the USDC route the server uses; this is its one-token core.
 */
import { type Address, encodeFunctionData, erc20Abi } from 'viem';
import { encodeOpen } from '../../../../src/contracts/calldata.ts';
import {
  ERC20_AMOUNT_OFFSET,
  FillKind,
  type Intent,
  IntentMode,
  OPEN_INPUT_AMOUNT_OFFSET,
  type OrderData,
} from '../../../../src/contracts/types.ts';
import type { TestChain } from '../../../harness/chain.ts';
import { accountAddress } from '../../route.ts';
import { randomSalt, ZERO } from './fixture.ts';

/** Byte offset of `depositor`, the first word of `open(OrderData)` calldata. */
const OPEN_DEPOSITOR_OFFSET = 4;
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
  const ownBalance = (offset: number) => ({ kind: FillKind.OwnBalance, token: p.token, offset }) as const;
  const intent: Intent = {
    mode: IntentMode.Origin,
    chainId: BigInt(chain.chainId),
    owner: user,
    refundRecipient: user,
    executor: chain.accounts.relayer.address,
    deadline: p.deadline,
    salt,
    depositToken: p.token,
    depositAmount: p.depositAmount,
    minGas: 0n,
    calls: [
      {
        target: p.token,
        value: 0n,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [settler, 0n] }),
        fills: [ownBalance(ERC20_AMOUNT_OFFSET)],
      },
      {
        target: settler,
        value: 0n,
        data: encodeOpen(template),
        fills: [
          { kind: FillKind.OwnAddress, token: ZERO, offset: OPEN_DEPOSITOR_OFFSET },
          ownBalance(OPEN_INPUT_AMOUNT_OFFSET),
        ],
      },
    ],
    sweepTokens: [],
  };
  const { address: account } = accountAddress(chain, intent);
  return {
    intent,
    account,
    template,
    opened: (inputAmount) => ({ ...template, depositor: account, inputAmount }),
  };
}
