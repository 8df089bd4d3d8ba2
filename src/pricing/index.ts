export { PRICE_TTL_MS } from './constants.ts';
export { createPriceSource, type PriceSource, type PriceSourceDeps } from './create-price-source.ts';
export { InvalidStaticPriceError } from './errors.ts';
export { hasPoolPricing, usdReferenceToken, wrappedNative } from './pool-price.ts';
