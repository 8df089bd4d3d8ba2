/**
 * GetTokenPrices: one entry per requested token, same order, the token object echoed as sent
 * (address case kept), `priceUsd` when the price source knows the token, `updatedAt` = when it was
 * read (the price source's read time, else now). A token on a chain this server does not serve, or one without a price, gets no `priceUsd`
 * (the client reads that as 0) rather than failing the whole batch.
 */
import type { ApiDeps, Handler } from '../context.ts';

export const createGetTokenPrices =
  (deps: ApiDeps): Handler<'GetTokenPrices'> =>
  async ({ tokens }) => {
    const now = deps.now().toISOString();
    const prices = deps.prices;
    const tokenPrices = await Promise.all(
      tokens.map(async (token) => {
        const known = deps.chainById.has(token.chainId);
        const priceUsd =
          known && prices ? await prices.getPriceUsd(token.chainId, token.tokenAddress) : undefined;
        if (priceUsd === undefined) return { token, updatedAt: now };
        const readAt = prices?.updatedAt?.(token.chainId, token.tokenAddress);
        return { token, priceUsd, updatedAt: readAt ? readAt.toISOString() : now };
      }),
    );
    return { tokenPrices };
  };
