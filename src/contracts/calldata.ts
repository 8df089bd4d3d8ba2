/**
 * Calldata for every transaction the server sends to Switchyard's contracts.
 */
import { type Address, encodeAbiParameters, encodeFunctionData, type Hex } from 'viem';
import {
  destinationSettlerAbi,
  intentAccountAbi,
  intentFactoryAbi,
  originSettlerAbi,
} from './abis.generated.ts';
import type { Intent, OrderData } from './types.ts';

/** `IntentAccount.execute(intent, authData)`; authData '0x' means a plain deposit. */
export function encodeExecute(intent: Intent, authData: Hex = '0x'): Hex {
  return encodeFunctionData({ abi: intentAccountAbi, functionName: 'execute', args: [intent, authData] });
}

/** `IntentAccount.refund(intent, tokens, native)`: balances go to the committed refund recipient. */
export function encodeRefund(intent: Intent, tokens: readonly Address[], native: boolean): Hex {
  return encodeFunctionData({
    abi: intentAccountAbi,
    functionName: 'refund',
    args: [intent, tokens, native],
  });
}

/** `IntentFactory.deploy(intent)`. */
export function encodeDeploy(intent: Intent): Hex {
  return encodeFunctionData({ abi: intentFactoryAbi, functionName: 'deploy', args: [intent] });
}

/** `IntentFactory.deployIfNeededAndExecute(intent, authData)`. */
export function encodeDeployIfNeededAndExecute(intent: Intent, authData: Hex = '0x'): Hex {
  return encodeFunctionData({
    abi: intentFactoryAbi,
    functionName: 'deployIfNeededAndExecute',
    args: [intent, authData],
  });
}

/** `IntentFactory.deployIfNeededAndRefund(intent, tokens, native)`. */
export function encodeDeployIfNeededAndRefund(
  intent: Intent,
  tokens: readonly Address[],
  native: boolean,
): Hex {
  return encodeFunctionData({
    abi: intentFactoryAbi,
    functionName: 'deployIfNeededAndRefund',
    args: [intent, tokens, native],
  });
}

/** `OriginSettler.open(order)`: made by the origin account as its lock call. */
export function encodeOpen(order: OrderData): Hex {
  return encodeFunctionData({ abi: originSettlerAbi, functionName: 'open', args: [order] });
}

/** `DestinationSettler.fill(order, originChainId, originSettler, repaymentAddr)`. */
export function encodeFill(
  order: OrderData,
  originChainId: bigint,
  originSettler: Address,
  repaymentAddr: Address,
): Hex {
  return encodeFunctionData({
    abi: destinationSettlerAbi,
    functionName: 'fill',
    args: [order, originChainId, originSettler, repaymentAddr],
  });
}

/** The AttestedFillVerifier proof: abi.encode(filler, signature). */
export function encodeFillProof(filler: Address, signature: Hex): Hex {
  return encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [filler, signature]);
}

/** `OriginSettler.settle(order, repaymentAddr, proof)`. */
export function encodeSettle(order: OrderData, repaymentAddr: Address, proof: Hex): Hex {
  return encodeFunctionData({
    abi: originSettlerAbi,
    functionName: 'settle',
    args: [order, repaymentAddr, proof],
  });
}

/** `OriginSettler.refund(order)`: anyone, once `fillDeadline + grace` has passed. */
export function encodeOrderRefund(order: OrderData): Hex {
  return encodeFunctionData({ abi: originSettlerAbi, functionName: 'refund', args: [order] });
}
