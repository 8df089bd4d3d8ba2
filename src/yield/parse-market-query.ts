/**
 * YieldGetMarkets' request, checked: `chainId` a decimal string, `type` lending|vault, `sort` one of three,
 * `limit` 1..MAX_LIMIT, `offset` ≥ 0. Anything else is an InvalidInputError naming the field.
 */
import { InvalidInputError } from '../internal/errors.ts';
import { DEFAULT_LIMIT } from './constants.ts';
import type { MarketType } from './types.ts';

export const MARKET_SORTS = ['rewardRateDesc', 'rewardRateAsc', 'tvlDesc'] as const;
export type MarketSort = (typeof MARKET_SORTS)[number];

/** Largest page: the API schema's bound too. */
export const MAX_LIMIT = 1000;

export interface MarketQueryInput {
  provider?: string | undefined;
  chainId?: string | undefined;
  type?: string | undefined;
  search?: string | undefined;
  sort?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface MarketQuery {
  provider?: string | undefined;
  chainId?: number | undefined;
  type?: MarketType | undefined;
  search?: string | undefined;
  sort?: MarketSort | undefined;
  limit: number;
  offset: number;
}

export function parseMarketQuery(input: MarketQueryInput): MarketQuery {
  return {
    provider: blankToUndefined(input.provider)?.toLowerCase(),
    chainId: parseChainId(blankToUndefined(input.chainId)),
    type: parseType(blankToUndefined(input.type)),
    search: blankToUndefined(input.search)?.toLowerCase(),
    sort: parseSort(blankToUndefined(input.sort)),
    ...parsePage(input),
  };
}

/** `limit` 1..MAX_LIMIT (default DEFAULT_LIMIT) and `offset` ≥ 0 (default 0): the pages of markets and providers. */
export function parsePage(input: { limit?: number | undefined; offset?: number | undefined }): {
  limit: number;
  offset: number;
} {
  return {
    limit: parseCount('limit', input.limit ?? DEFAULT_LIMIT, 1, MAX_LIMIT),
    offset: parseCount('offset', input.offset ?? 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

const blankToUndefined = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

function parseChainId(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,16}$/.test(value)) {
    throw new InvalidInputError('chainId', 'must be a chain id as a decimal string');
  }
  return Number(value);
}

function parseType(value: string | undefined): MarketType | undefined {
  if (value === undefined) return undefined;
  if (value !== 'lending' && value !== 'vault') {
    throw new InvalidInputError('type', `must be lending or vault, not '${value}'`);
  }
  return value;
}

function parseSort(value: string | undefined): MarketSort | undefined {
  if (value === undefined) return undefined;
  if (!(MARKET_SORTS as readonly string[]).includes(value)) {
    throw new InvalidInputError('sort', `must be one of ${MARKET_SORTS.join(', ')}, not '${value}'`);
  }
  return value as MarketSort;
}

function parseCount(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInputError(field, `must be an integer from ${min} to ${max}`);
  }
  return value;
}
