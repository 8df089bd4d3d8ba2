import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  toHex,
  zeroAddress,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { orderDataAbiParam } from './abi-params.ts';
import {
  destinationSettlerAbi,
  intentAccountAbi,
  intentFactoryAbi,
  originSettlerAbi,
} from './abis.generated.ts';
import {
  encodeDeploy,
  encodeDeployIfNeededAndExecute,
  encodeDeployIfNeededAndRecover,
  encodeDeployIfNeededAndRefund,
  encodeExecute,
  encodeFill,
  encodeFillProof,
  encodeOpen,
  encodeOrderRefund,
  encodeRecover,
  encodeRefund,
  encodeSettle,
  encodeSettleBatch,
} from './calldata.ts';
import { computeOrderId } from './order-id.ts';
import { FillKind, type Intent, IntentMode, type OrderData, type Recovery } from './types.ts';

/** Deterministic cases of every shape, so a failure names the case that failed. */
function* cases(count: number) {
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed >>> 12;
  };
  const bytes = (n: number) => toHex(Uint8Array.from({ length: n }, () => next() & 0xff));
  // Checksummed like the config's, lower case like a stored one.
  const address = (): Address => {
    const hex = bytes(20);
    return next() % 2 ? getAddress(hex) : hex;
  };
  const amount = () => (next() % 3 === 0 ? 0n : BigInt(next()) ** BigInt(1 + (next() % 8)));
  for (let i = 0; i < count; i++) {
    const intent: Intent = {
      mode: next() % 2 ? IntentMode.Origin : IntentMode.Destination,
      chainId: BigInt(next()),
      owner: address(),
      refundRecipient: address(),
      executor: next() % 2 ? zeroAddress : address(),
      deadline: BigInt(next()),
      salt: bytes(32),
      depositToken: next() % 3 ? address() : zeroAddress,
      depositAmount: amount(),
      minGas: amount(),
      calls: Array.from({ length: next() % 5 }, () => ({
        target: address(),
        value: amount(),
        data: (next() % 4 === 0 ? '0x' : bytes(next() % 300)) as Hex,
        fills: Array.from({ length: next() % 3 }, () => ({
          kind: next() % 2 ? FillKind.OwnBalance : FillKind.OwnAddress,
          token: next() % 2 ? zeroAddress : address(),
          offset: next() % 1000,
        })),
      })),
      sweepTokens: Array.from({ length: next() % 4 }, address),
    };
    const order: OrderData = {
      depositor: address(),
      refundRecipient: address(),
      inputToken: address(),
      inputAmount: amount(),
      destChainId: BigInt(next()),
      destSettler: address(),
      outputToken: address(),
      outputAmount: amount(),
      recipient: address(),
      fillDeadline: BigInt(next()),
      nonce: bytes(32),
    };
    const recovery: Recovery = {
      token: next() % 3 ? address() : zeroAddress,
      recipient: address(),
      cancelIntent: next() % 2 === 0,
      maxFee: amount(),
      nonce: BigInt(next()) ** BigInt(1 + (next() % 8)),
      deadline: BigInt(next()),
    };
    yield {
      i,
      intent,
      order,
      recovery,
      to: address(),
      chainId: BigInt(next()),
      tokens: Array.from({ length: next() % 4 }, address),
      native: next() % 2 === 0,
      authData: next() % 2 ? ('0x' as Hex) : bytes(next() % 70),
      signature: bytes(65),
    };
  }
}

describe('engine calldata (compiled encoders)', () => {
  it('is byte for byte what viem encodes, for every function and intents and orders of every shape', () => {
    for (const c of cases(200)) {
      const m = `case ${c.i}`;
      expect(encodeExecute(c.intent, c.authData), m).toBe(
        encodeFunctionData({ abi: intentAccountAbi, functionName: 'execute', args: [c.intent, c.authData] }),
      );
      expect(encodeRefund(c.intent, c.tokens, c.native), m).toBe(
        encodeFunctionData({
          abi: intentAccountAbi,
          functionName: 'refund',
          args: [c.intent, c.tokens, c.native],
        }),
      );
      expect(encodeDeploy(c.intent), m).toBe(
        encodeFunctionData({ abi: intentFactoryAbi, functionName: 'deploy', args: [c.intent] }),
      );
      expect(encodeDeployIfNeededAndExecute(c.intent, c.authData), m).toBe(
        encodeFunctionData({
          abi: intentFactoryAbi,
          functionName: 'deployIfNeededAndExecute',
          args: [c.intent, c.authData],
        }),
      );
      expect(encodeDeployIfNeededAndRefund(c.intent, c.tokens, c.native), m).toBe(
        encodeFunctionData({
          abi: intentFactoryAbi,
          functionName: 'deployIfNeededAndRefund',
          args: [c.intent, c.tokens, c.native],
        }),
      );
      const fee = c.recovery.maxFee / 2n;
      expect(encodeRecover(c.intent, c.recovery, fee, c.signature), m).toBe(
        encodeFunctionData({
          abi: intentAccountAbi,
          functionName: 'recover',
          args: [c.intent, c.recovery, fee, c.signature],
        }),
      );
      expect(encodeDeployIfNeededAndRecover(c.intent, c.recovery, fee, c.signature), m).toBe(
        encodeFunctionData({
          abi: intentFactoryAbi,
          functionName: 'deployIfNeededAndRecover',
          args: [c.intent, c.recovery, fee, c.signature],
        }),
      );
      expect(encodeOpen(c.order), m).toBe(
        encodeFunctionData({ abi: originSettlerAbi, functionName: 'open', args: [c.order] }),
      );
      expect(encodeFill(c.order, c.chainId, c.to, c.intent.owner), m).toBe(
        encodeFunctionData({
          abi: destinationSettlerAbi,
          functionName: 'fill',
          args: [c.order, c.chainId, c.to, c.intent.owner],
        }),
      );
      const proof = encodeFillProof(c.to, c.signature);
      expect(proof, m).toBe(
        encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [c.to, c.signature]),
      );
      expect(encodeSettle(c.order, c.to, proof), m).toBe(
        encodeFunctionData({ abi: originSettlerAbi, functionName: 'settle', args: [c.order, c.to, proof] }),
      );
      // One to three orders (the empty batch is the contract's to refuse).
      const batch = Array.from({ length: 1 + (c.i % 3) }, (_, k) => ({
        orderData: { ...c.order, inputAmount: c.order.inputAmount + BigInt(k) },
        repaymentAddr: c.to,
        proof,
      }));
      expect(encodeSettleBatch(batch), m).toBe(
        encodeFunctionData({ abi: originSettlerAbi, functionName: 'settleBatch', args: [batch] }),
      );
      expect(encodeOrderRefund(c.order), m).toBe(
        encodeFunctionData({ abi: originSettlerAbi, functionName: 'refund', args: [c.order] }),
      );
    }
  });

  it('computes the order id as keccak256(abi.encode(order, originChainId, originSettler)), as viem does', () => {
    for (const c of cases(200)) {
      expect(computeOrderId(c.order, c.chainId, c.to), `case ${c.i}`).toBe(
        keccak256(
          encodeAbiParameters(
            [orderDataAbiParam, { type: 'uint256' }, { type: 'address' }],
            [c.order, c.chainId, c.to],
          ),
        ),
      );
    }
  });

  it('refuses values that would encode to wrong bytes, as viem did', () => {
    const [c] = [...cases(1)];
    expect(() => encodeDeployIfNeededAndExecute({ ...c!.intent, deadline: -1n })).toThrow(RangeError);
    expect(() => encodeOpen({ ...c!.order, recipient: '0x1234' })).toThrow(TypeError);
    expect(() => encodeFillProof(c!.to, '0x123')).toThrow(TypeError);
  });
});
