/** The handlers the API layer answers itself from configuration (the catalogue). */
import type { ApiDeps, ApiServices } from '../context.ts';
import { createClock } from './clock.ts';
import { createGetChains } from './get-chains.ts';
import { createGetCountryList } from './get-country-list.ts';
import { createGetDefaultIntentProtocol } from './get-default-intent-protocol.ts';
import { createGetEdges } from './get-edges.ts';
import { createGetExactInputRoutes } from './get-exact-input-routes.ts';
import { createGetExactOutputRoutes } from './get-exact-output-routes.ts';
import { createGetExchangeRate } from './get-exchange-rate.ts';
import { createGetFiatCurrencyList } from './get-fiat-currency-list.ts';
import { createGetProtocolContracts } from './get-protocol-contracts.ts';
import { createGetSupportedIntentProtocols } from './get-supported-intent-protocols.ts';
import { createGetTokenList } from './get-token-list.ts';
import { createGetTokenPrices } from './get-token-prices.ts';
import { createGetTrailsContracts } from './get-trails-contracts.ts';
import { createPing } from './ping.ts';
import { createRuntimeStatus } from './runtime-status.ts';

export function createCatalogueHandlers(deps: ApiDeps): ApiServices {
  return {
    Ping: createPing(deps),
    Clock: createClock(deps),
    RuntimeStatus: createRuntimeStatus(deps),
    GetChains: createGetChains(deps),
    GetTokenList: createGetTokenList(deps),
    GetTokenPrices: createGetTokenPrices(deps),
    GetExactInputRoutes: createGetExactInputRoutes(deps),
    GetExactOutputRoutes: createGetExactOutputRoutes(deps),
    GetTrailsContracts: createGetTrailsContracts(deps),
    GetProtocolContracts: createGetProtocolContracts(deps),
    GetSupportedIntentProtocols: createGetSupportedIntentProtocols(),
    GetDefaultIntentProtocol: createGetDefaultIntentProtocol(),
    GetExchangeRate: createGetExchangeRate(),
    GetFiatCurrencyList: createGetFiatCurrencyList(),
    GetEdges: createGetEdges(),
    GetCountryList: createGetCountryList(),
  };
}
