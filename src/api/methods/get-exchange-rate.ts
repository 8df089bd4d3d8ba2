/**
 * GetExchangeRate: the rate from US dollars to `toCurrency`. Prices here are in US dollars and the server has
 * no exchange-rate source, so the one rate it knows is USD → USD = 1; any other currency is refused naming
 * `toCurrency`.
 */
import type { Handler } from '../context.ts';
import { InvalidArgumentError } from '../errors/rpc-errors.ts';
import { USD } from './usd-currency.ts';

export const createGetExchangeRate =
  (): Handler<'GetExchangeRate'> =>
  ({ toCurrency }) => {
    if (toCurrency !== undefined && toCurrency.trim().toUpperCase() !== USD.code) {
      throw new InvalidArgumentError(
        'toCurrency',
        `this server prices in USD only and has no exchange-rate source; ask for USD, not '${toCurrency}'`,
      );
    }
    return {
      exchangeRate: {
        name: USD.name,
        symbol: USD.code,
        value: 1,
        vsCurrency: USD.code,
        currencyType: 'fiat',
      },
    };
  };
