/** WETH provider: wraps the native currency for routes that start with it, unwraps for routes that end with it. */
import { type Address, encodeFunctionData } from 'viem';
import { FillKind, type IntentCall } from '../contracts/types.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import { weth9Abi } from './abis.ts';
import { UNWRAP_GAS, WRAP_GAS } from './gas.ts';
import { ProviderId, type WrapProvider } from './types.ts';

/** Byte offset of `wad` in `withdraw(uint256 wad)` calldata: right after the selector. */
const WITHDRAW_AMOUNT_OFFSET = 4;

export function createWethProvider(): WrapProvider {
  const requireWeth = (chain: ChainConfig): Address => {
    const weth = chain.contracts.weth;
    if (!weth) throw new Error(`chain ${chain.chainId} has no WETH configured`);
    return weth;
  };
  return {
    id: ProviderId.Weth,
    wrapGas: WRAP_GAS,
    unwrapGas: UNWRAP_GAS,
    wrappedToken: (chain) => chain.contracts.weth,
    wrapCall(chain, amount) {
      const data = encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' });
      return { target: requireWeth(chain), value: amount, data, fills: [] };
    },
    unwrapCall(chain): IntentCall {
      const weth = requireWeth(chain);
      const data = encodeFunctionData({ abi: weth9Abi, functionName: 'withdraw', args: [0n] });
      const fill = { kind: FillKind.OwnBalance, token: weth, offset: WITHDRAW_AMOUNT_OFFSET } as const;
      return { target: weth, value: 0n, data, fills: [fill] };
    },
  };
}
