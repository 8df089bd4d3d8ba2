/** GetFiatCurrencyList: the currencies USD values can be shown in here, which is US dollars only (usd-currency.ts). */
import type { Handler } from '../context.ts';
import { USD } from './usd-currency.ts';

export const createGetFiatCurrencyList = (): Handler<'GetFiatCurrencyList'> => () => ({ currencies: [USD] });
