/**
 * USD prices for an intent's page, as they were at quote time: the quote's USD values of what goes in
 * (origin token) and comes out (destination token), and each chain's native price from its gas fee. A
 * record of what the person was quoted, not today's market.
 */
import type { Catalogue } from './catalogue.ts';
import { unitsAsNumber } from './format.ts';
import type { Intent, IntentReceipt } from './types.ts';

const NATIVE = '0x0000000000000000000000000000000000000000';

export type PriceUsd = (chainId: number, token: string) => number | undefined;

export function quotePrices(
  intent: Intent | undefined,
  receipt: IntentReceipt,
  catalogue: Catalogue,
): PriceUsd {
  const prices = new Map<string, number>();
  const set = (
    chainId: number,
    token: string | undefined,
    usd: number | undefined,
    amount: string | undefined,
  ) => {
    const info = token && catalogue.token(chainId, token);
    if (!info || usd === undefined || !amount || amount === '0') return;
    prices.set(`${chainId}:${token!.toLowerCase()}`, usd / unitsAsNumber(amount, info.decimals));
  };
  if (intent) {
    const s = receipt.summary;
    set(receipt.originChainId, s.originTokenAddress, intent.quote.fromAmountUsd, intent.quote.fromAmount);
    set(
      receipt.destinationChainId,
      s.destinationTokenAddress,
      intent.quote.toAmountUsd,
      intent.quote.toAmount,
    );
    for (const gas of [intent.fees.originGas, intent.fees.destinationGas]) {
      if (gas?.nativeTokenPriceUsd !== undefined)
        prices.set(`${gas.chainId}:${NATIVE}`, gas.nativeTokenPriceUsd);
    }
  }
  return (chainId, token) => prices.get(`${chainId}:${token.toLowerCase()}`);
}
