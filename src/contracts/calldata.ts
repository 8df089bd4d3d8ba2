/**
 * Calldata for every transaction the server sends to Switchyard's contracts.
 *
 * Each function's ABI entry is compiled once into an encoder (src/providers/calldata-encoder.ts says why:
 * viem's encodeFunctionData looks the function up, hashes its signature and checks every address's checksum
 * on every call). The engine encodes four or five of these per intent. The bytes are viem's (calldata.test.ts
 * compares every function with encodeFunctionData).
 */
import type { Address, Hex } from 'viem';
import { createCalldataEncoder } from '../providers/calldata-encoder.ts';
import {
  destinationSettlerAbi,
  intentAccountAbi,
  intentFactoryAbi,
  originSettlerAbi,
} from './abis.generated.ts';
import type { Intent, OrderData, Recovery } from './types.ts';

const execute = createCalldataEncoder(intentAccountAbi, 'execute');
const accountRefund = createCalldataEncoder(intentAccountAbi, 'refund');
const deploy = createCalldataEncoder(intentFactoryAbi, 'deploy');
const deployIfNeededAndExecute = createCalldataEncoder(intentFactoryAbi, 'deployIfNeededAndExecute');
const deployIfNeededAndRefund = createCalldataEncoder(intentFactoryAbi, 'deployIfNeededAndRefund');
const accountRecover = createCalldataEncoder(intentAccountAbi, 'recover');
const deployIfNeededAndRecover = createCalldataEncoder(intentFactoryAbi, 'deployIfNeededAndRecover');
const open = createCalldataEncoder(originSettlerAbi, 'open');
const settle = createCalldataEncoder(originSettlerAbi, 'settle');
const settleBatch = createCalldataEncoder(originSettlerAbi, 'settleBatch');
const orderRefund = createCalldataEncoder(originSettlerAbi, 'refund');
const fill = createCalldataEncoder(destinationSettlerAbi, 'fill');
/** abi.encode(address, bytes): a function's arguments without its selector. */
const fillProofArguments = createCalldataEncoder(
  [
    {
      type: 'function',
      name: 'fillProof',
      inputs: [
        { name: 'filler', type: 'address' },
        { name: 'signature', type: 'bytes' },
      ],
      outputs: [],
      stateMutability: 'pure',
    },
  ],
  'fillProof',
);
/** Hex characters of '0x' and a 4-byte selector. */
const SELECTOR_HEX = 10;

/** `IntentAccount.execute(intent, authData)`; authData '0x' means a plain deposit. */
export function encodeExecute(intent: Intent, authData: Hex = '0x'): Hex {
  return execute([intent, authData]);
}

/** `IntentAccount.refund(intent, tokens, native)`: balances go to the committed refund recipient. */
export function encodeRefund(intent: Intent, tokens: readonly Address[], native: boolean): Hex {
  return accountRefund([intent, tokens, native]);
}

/** `IntentFactory.deploy(intent)`. */
export function encodeDeploy(intent: Intent): Hex {
  return deploy([intent]);
}

/** `IntentFactory.deployIfNeededAndExecute(intent, authData)`. */
export function encodeDeployIfNeededAndExecute(intent: Intent, authData: Hex = '0x'): Hex {
  return deployIfNeededAndExecute([intent, authData]);
}

/** `IntentFactory.deployIfNeededAndRefund(intent, tokens, native)`. */
export function encodeDeployIfNeededAndRefund(
  intent: Intent,
  tokens: readonly Address[],
  native: boolean,
): Hex {
  return deployIfNeededAndRefund([intent, tokens, native]);
}

/** `IntentAccount.recover(intent, recovery, fee, signature)`: the caller keeps `fee` (≤ recovery.maxFee). */
export function encodeRecover(intent: Intent, recovery: Recovery, fee: bigint, signature: Hex): Hex {
  return accountRecover([intent, recovery, fee, signature]);
}

/** `IntentFactory.deployIfNeededAndRecover(intent, recovery, fee, signature)`. */
export function encodeDeployIfNeededAndRecover(
  intent: Intent,
  recovery: Recovery,
  fee: bigint,
  signature: Hex,
): Hex {
  return deployIfNeededAndRecover([intent, recovery, fee, signature]);
}

/** `OriginSettler.open(order)`: made by the origin account as its lock call. */
export function encodeOpen(order: OrderData): Hex {
  return open([order]);
}

/** `DestinationSettler.fill(order, originChainId, originSettler, repaymentAddr)`. */
export function encodeFill(
  order: OrderData,
  originChainId: bigint,
  originSettler: Address,
  repaymentAddr: Address,
): Hex {
  return fill([order, originChainId, originSettler, repaymentAddr]);
}

/** The AttestedFillVerifier proof: abi.encode(filler, signature). */
export function encodeFillProof(filler: Address, signature: Hex): Hex {
  return `0x${fillProofArguments([filler, signature]).slice(SELECTOR_HEX)}`;
}

/** `OriginSettler.settle(order, repaymentAddr, proof)`. */
export function encodeSettle(order: OrderData, repaymentAddr: Address, proof: Hex): Hex {
  return settle([order, repaymentAddr, proof]);
}

/** One order of `OriginSettler.settleBatch`: `settle`'s three arguments. */
export interface SettlementArgs {
  orderData: OrderData;
  repaymentAddr: Address;
  proof: Hex;
}

/** `OriginSettler.settleBatch(settlements)`: several orders in one transaction; orders already over are skipped. */
export function encodeSettleBatch(settlements: readonly SettlementArgs[]): Hex {
  return settleBatch([settlements]);
}

/** `OriginSettler.refund(order)`: anyone, once `fillDeadline + grace` has passed. */
export function encodeOrderRefund(order: OrderData): Hex {
  return orderRefund([order]);
}
