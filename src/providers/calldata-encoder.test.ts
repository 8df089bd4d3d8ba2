import { type Address, encodeFunctionData, erc20Abi, getAddress, type Hex, toHex, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { intentFactoryAbi, originSettlerAbi } from '../contracts/abis.generated.ts';
import { FillKind, type Intent, IntentMode, type OrderData } from '../contracts/types.ts';
import {
  swapRouter02Abi,
  uniswapV2RouterAbi,
  uniswapV3PoolAbi,
  uniswapV3TickLensAbi,
  weth9Abi,
} from './abis.ts';
import { createCalldataEncoder } from './calldata-encoder.ts';

/** A deterministic generator, so a failure names the case that failed. */
function* cases(count: number) {
  let seed = 1;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    // The low bits of this generator cycle quickly; the high ones do not.
    return seed >>> 12;
  };
  const bytes = (n: number) => toHex(Uint8Array.from({ length: n }, () => next() & 0xff));
  // Checksummed (mixed case) like the config's, lower case like a stored one.
  const address = (): Address => {
    const hex = bytes(20);
    return next() % 2 ? getAddress(hex) : hex;
  };
  const amount = () => (next() % 3 === 0 ? 0n : BigInt(next()) ** BigInt(1 + (next() % 8)));
  for (let i = 0; i < count; i++) {
    const calls = Array.from({ length: next() % 5 }, () => ({
      target: address(),
      value: amount(),
      data: (next() % 4 === 0 ? '0x' : bytes(next() % 300)) as Hex,
      fills: Array.from({ length: next() % 3 }, () => ({
        kind: next() % 2 ? FillKind.OwnBalance : FillKind.OwnAddress,
        token: next() % 2 ? zeroAddress : address(),
        offset: next() % 1000,
      })),
    }));
    const intent: Intent = {
      mode: next() % 2 ? IntentMode.Origin : IntentMode.Destination,
      chainId: BigInt(next()),
      owner: address(),
      refundRecipient: address(),
      executor: next() % 2 ? zeroAddress : address(),
      deadline: BigInt(next()),
      salt: bytes(32),
      depositToken: address(),
      depositAmount: amount(),
      minGas: amount(),
      calls,
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
    yield {
      i,
      intent,
      order,
      to: address(),
      amount: amount(),
      authData: next() % 2 ? ('0x' as Hex) : bytes(next() % 70),
    };
  }
}

describe('createCalldataEncoder', () => {
  const execute = createCalldataEncoder(intentFactoryAbi, 'deployIfNeededAndExecute');
  const open = createCalldataEncoder(originSettlerAbi, 'open');
  const transfer = createCalldataEncoder(erc20Abi, 'transfer');
  const approve = createCalldataEncoder(erc20Abi, 'approve');
  const swapExact = createCalldataEncoder(uniswapV2RouterAbi, 'swapExactTokensForTokens');
  const deposit = createCalldataEncoder(weth9Abi, 'deposit');

  it('encodes a function without arguments as its selector', () => {
    expect(deposit([])).toBe(encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }));
  });

  it('gives the exact calldata viem gives, for intents of every shape, orders and ERC-20 calls', () => {
    for (const c of cases(300)) {
      // viem itself (calldata.ts uses these encoders too).
      expect(execute([c.intent, c.authData]), `case ${c.i}`).toBe(
        encodeFunctionData({
          abi: intentFactoryAbi,
          functionName: 'deployIfNeededAndExecute',
          args: [c.intent, c.authData],
        }),
      );
      expect(open([c.order]), `case ${c.i}`).toBe(
        encodeFunctionData({ abi: originSettlerAbi, functionName: 'open', args: [c.order] }),
      );
      const args = [c.to, c.amount] as const;
      expect(transfer(args)).toBe(encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args }));
      expect(approve(args)).toBe(encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args }));
      const swap = [c.amount, c.amount, c.intent.sweepTokens, c.to, c.intent.deadline] as const;
      expect(swapExact(swap)).toBe(
        encodeFunctionData({ abi: uniswapV2RouterAbi, functionName: 'swapExactTokensForTokens', args: swap }),
      );
    }
  });

  it('encodes signed integers and the SwapRouter02 calls (nested bytes in a struct, bytes[]) as viem does', () => {
    const ticks = createCalldataEncoder(uniswapV3PoolAbi, 'ticks');
    const word = createCalldataEncoder(uniswapV3TickLensAbi, 'getPopulatedTicksInWord');
    const exactInput = createCalldataEncoder(swapRouter02Abi, 'exactInput');
    const multicall = createCalldataEncoder(swapRouter02Abi, 'multicall');
    for (const c of cases(100)) {
      const tick = (c.i % 2 ? -1 : 1) * Number(c.intent.deadline % 887_273n);
      expect(ticks([tick])).toBe(
        encodeFunctionData({ abi: uniswapV3PoolAbi, functionName: 'ticks', args: [tick] }),
      );
      const w = (c.i % 2 ? -1 : 1) * Number(c.intent.chainId % 32_768n);
      const args = [c.to, w] as const;
      expect(word(args)).toBe(
        encodeFunctionData({ abi: uniswapV3TickLensAbi, functionName: 'getPopulatedTicksInWord', args }),
      );
      const params = {
        path: c.authData,
        recipient: c.to,
        amountIn: c.amount,
        amountOutMinimum: c.intent.minGas,
      };
      const inner = exactInput([params]);
      expect(inner).toBe(
        encodeFunctionData({ abi: swapRouter02Abi, functionName: 'exactInput', args: [params] }),
      );
      const calls = [inner, c.authData, inner];
      expect(multicall([c.intent.deadline, calls])).toBe(
        encodeFunctionData({
          abi: swapRouter02Abi,
          functionName: 'multicall',
          args: [c.intent.deadline, calls],
        }),
      );
    }
    expect(() => ticks([2 ** 23])).toThrow(RangeError);
    expect(() => ticks([-(2 ** 23) - 1])).toThrow(RangeError);
  });

  it('refuses values that would encode to wrong bytes', () => {
    const to = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
    expect(() => transfer([to, -1n])).toThrow(RangeError);
    expect(() => transfer([to, 2n ** 256n])).toThrow(RangeError);
    expect(() => transfer(['0x1234', 1n])).toThrow(TypeError);
    expect(() => transfer([to])).toThrow(TypeError);
    const [c] = [...cases(1)];
    expect(() => execute([{ ...c!.intent, salt: '0x12' }, '0x'])).toThrow(TypeError);
    expect(() => execute([c!.intent, '0x123'])).toThrow(TypeError);
  });
});
