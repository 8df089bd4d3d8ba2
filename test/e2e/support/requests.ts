/** Quote requests for the e2e routes, by chain and token symbol ('ETH' is the native currency). */
import type { QuoteIntentRequest } from '@0xtrails/api';
import { type Address, parseUnits, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import type { TestDevnet, TestDevnetChain } from '../../harness/devnet.ts';

export const usdc = (n: string) => parseUnits(n, 6);
export const dai = (n: string) => parseUnits(n, 18);

/** A recipient with nothing on any chain, so what it holds afterwards is what the intent delivered. */
export const freshAddress = (): Address => privateKeyToAddress(generatePrivateKey());

export const tokenOf = (chain: TestDevnetChain, symbol: string): Address =>
  symbol === 'ETH' ? zeroAddress : (chain.entry.tokens[symbol] as Address);

export function quoteRequest(p: {
  owner: Address;
  from: TestDevnetChain;
  fromToken: string;
  to: TestDevnetChain;
  toToken: string;
  recipient: Address;
  amountIn?: bigint;
  amountOut?: bigint;
  extra?: Partial<QuoteIntentRequest>;
}): QuoteIntentRequest {
  return {
    ownerAddress: p.owner,
    originChainId: p.from.entry.chainId,
    originTokenAddress: tokenOf(p.from, p.fromToken),
    destinationChainId: p.to.entry.chainId,
    destinationTokenAddress: tokenOf(p.to, p.toToken),
    destinationToAddress: p.recipient,
    originTokenAmount: p.amountIn ?? 0n,
    destinationTokenAmount: p.amountOut ?? 0n,
    tradeType: (p.amountOut ? 'EXACT_OUTPUT' : 'EXACT_INPUT') as QuoteIntentRequest['tradeType'],
    ...p.extra,
  };
}

/** `amountIn` USDC from the devnet user on the first chain to USDC for a fresh recipient on the second. */
export function usdcToSecondChain(net: TestDevnet, amountIn: bigint): QuoteIntentRequest {
  return quoteRequest({
    owner: net.devnet.accounts.user.address,
    from: net.chains[0]!,
    fromToken: 'USDC',
    to: net.chains[1]!,
    toToken: 'USDC',
    recipient: freshAddress(),
    amountIn,
  });
}
