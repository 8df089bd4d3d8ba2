/** Enumerations of the wire, as the official client (0.9.4) and the seed spec name them. */
import {
  FUND_METHODS,
  INTENT_MODES,
  INTENT_PROTOCOL_VERSIONS,
  ROUTE_PREFERENCES,
  ROUTE_PROVIDER_NAMES,
} from '../../intents/intent-document.ts';
import { StringEnum } from './wire.ts';

/** The seed's eight statuses (0.9.4 lacks INVALID; its client does not validate enums). */
export const INTENT_STATUSES = [
  'QUOTED',
  'COMMITTED',
  'EXECUTING',
  'FAILED',
  'SUCCEEDED',
  'ABORTED',
  'REFUNDED',
  'INVALID',
] as const;
export const IntentStatus = StringEnum(INTENT_STATUSES, 'intent status');

/** 0.9.4 transaction statuses plus the seed's RELAYED (accepted so echoed receipt states always validate). */
export const TRANSACTION_STATUSES = [
  'UNKNOWN',
  'ON_HOLD',
  'PENDING',
  'RELAYING',
  'SENT',
  'RELAYED',
  'ERRORED',
  'MINING',
  'SUCCEEDED',
  'FAILED',
  'ABORTED',
  'REVERTED',
] as const;
export const TransactionStatus = StringEnum(TRANSACTION_STATUSES, 'transaction status');

/**
 * Route providers: the seed's and the client's names plus Switchyard's own (UNISWAP_V2, UNISWAP_V3, SWITCHYARD), the
 * domain's list (a quote lists them). docs/api.md says which of them this server can actually route through.
 */
export const ROUTE_PROVIDERS = ROUTE_PROVIDER_NAMES;
export const RouteProvider = StringEnum(ROUTE_PROVIDERS, 'route provider');

export const TradeType = StringEnum(['EXACT_INPUT', 'EXACT_OUTPUT'] as const, 'trade type');
/** 0.9.4's types plus the reference's REFUND (0.9.4 does not check enum values it reads). */
export const TransactionType = StringEnum([
  'UNKNOWN',
  'DEPOSIT',
  'ORIGIN',
  'DESTINATION',
  'ROUTE',
  'REFUND',
] as const);
export const TransactionContext = StringEnum(['NONE', 'CCTPV2_MESSAGE'] as const);
export const ChainGasUsageStatus = StringEnum(['NORMAL', 'BUSY', 'VERY_BUSY'] as const);
export const SortOrder = StringEnum(['DESC', 'ASC'] as const);
export const IntentMode = StringEnum(INTENT_MODES, 'intent mode');
export const FundMethod = StringEnum(FUND_METHODS, 'fund method');
export const RoutePreference = StringEnum(ROUTE_PREFERENCES, 'route preference');
export const IntentProtocolVersion = StringEnum(INTENT_PROTOCOL_VERSIONS, 'intent protocol version');
/** The reference's non-EVM rails; this server has none, so filters on them match nothing. */
export const EdgeRail = StringEnum(['SOLANA', 'TRON'] as const, 'edge rail');
export const EdgeMode = StringEnum(['ORIGIN', 'DESTINATION'] as const, 'edge mode');
