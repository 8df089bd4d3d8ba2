/**
 * GetCountryList: the countries where the hosted service's fiat on-ramps operate. This server offers no
 * on-ramp (QuoteIntent refuses the ONRAMP_* fund methods), so the list is empty.
 */
import type { Handler } from '../context.ts';

export const createGetCountryList = (): Handler<'GetCountryList'> => () => ({ countries: [] });
