/** WETH provider: wraps the native currency for routes that start with it, unwraps for routes that end with it. */
import type { Address } from 'viem';
import { FillKind, type IntentCall } from '../contracts/types.ts';
import type { ChainConfig } from '../internal/config-types.ts';
import { weth9Abi } from './abis.ts';
import { createCalldataEncoder } from './calldata-encoder.ts';
import { UNWRAP_GAS, WRAP_GAS } from './gas.ts';
import { ProviderId, type WrapProvider } from './types.ts';

/** Byte offset of `wad` in `withdraw(uint256 wad)` calldata: right after the selector. */
const WITHDRAW_AMOUNT_OFFSET = 4;

const encodeDeposit = createCalldataEncoder(weth9Abi, 'deposit');
const encodeWithdraw = createCalldataEncoder(weth9Abi, 'withdraw');

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
      const data = encodeDeposit([]);
      return { target: requireWeth(chain), value: amount, data, fills: [] };
    },
    unwrapCall(chain): IntentCall {
      const weth = requireWeth(chain);
      const data = encodeWithdraw([0n]);
      const fill = { kind: FillKind.OwnBalance, token: weth, offset: WITHDRAW_AMOUNT_OFFSET } as const;
      return { target: weth, value: 0n, data, fills: [fill] };
    },
  };
}
