/**
 * What a GET /events request asks for: its filters and where to resume, from the query string and the
 * Last-Event-ID header. A bad value is an InvalidArgument error naming the parameter; so is a parameter
 * this endpoint does not know (a misspelt filter would otherwise widen the stream silently).
 */
import { INTENT_STATUSES, type IntentStatus } from '../../store/index.ts';
import { InvalidArgumentError } from '../errors/rpc-errors.ts';

export interface StreamFilter {
  /** Lower case. */
  intentId?: string | undefined;
  /** Lower case. */
  owner?: string | undefined;
  statuses?: ReadonlySet<IntentStatus> | undefined;
}

export interface StreamRequest {
  filter: StreamFilter;
  /** Resume after this event number; undefined starts with the events after the request. */
  lastEventId: number | undefined;
}

/** The query parameters GET /events takes (accessKey is read by the route's authentication). */
export const STREAM_QUERY_PARAMETERS = ['accessKey', 'intentId', 'owner', 'status', 'lastEventId'] as const;
export type StreamQueryParameter = (typeof STREAM_QUERY_PARAMETERS)[number];
const KNOWN_PARAMETERS: ReadonlySet<string> = new Set(STREAM_QUERY_PARAMETERS);
export const INTENT_ID = /^0x[0-9a-fA-F]{64}$/;
export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const EVENT_ID = /^[0-9]{1,15}$/;

export function parseStreamRequest(
  query: Record<string, unknown>,
  lastEventIdHeader: string | string[] | undefined,
): StreamRequest {
  for (const name of Object.keys(query)) {
    if (!KNOWN_PARAMETERS.has(name))
      throw new InvalidArgumentError(
        name,
        `unknown parameter; GET /events takes ${[...KNOWN_PARAMETERS].join(', ')}`,
      );
  }
  const intentId = single(query, 'intentId');
  if (intentId !== undefined && !INTENT_ID.test(intentId))
    throw new InvalidArgumentError('intentId', 'must be an intent id (0x followed by 64 hex digits)');
  const owner = single(query, 'owner');
  if (owner !== undefined && !ADDRESS.test(owner))
    throw new InvalidArgumentError('owner', 'must be a 20-byte hex address (0x followed by 40 hex digits)');
  const status = single(query, 'status');
  // EventSource sends the header on its own reconnects; the parameter serves a first connection.
  const header = Array.isArray(lastEventIdHeader) ? lastEventIdHeader[0] : lastEventIdHeader;
  const lastEventId = header ?? single(query, 'lastEventId');
  if (lastEventId !== undefined && !EVENT_ID.test(lastEventId.trim()))
    throw new InvalidArgumentError('Last-Event-ID', 'must be an event id (a whole number, 0 or more)');
  return {
    filter: {
      intentId: intentId?.toLowerCase(),
      owner: owner?.toLowerCase(),
      statuses: status === undefined ? undefined : parseStatuses(status),
    },
    lastEventId: lastEventId === undefined ? undefined : Number(lastEventId.trim()),
  };
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidArgumentError(name, 'must be given once');
  return value;
}

function parseStatuses(list: string): ReadonlySet<IntentStatus> {
  const statuses = list.split(',').map((s) => s.trim().toUpperCase());
  for (const status of statuses) {
    if (!(INTENT_STATUSES as readonly string[]).includes(status))
      throw new InvalidArgumentError(
        'status',
        `'${status}' is not an intent status (one or more of ${INTENT_STATUSES.join(', ')}, comma-separated)`,
      );
  }
  return new Set(statuses as IntentStatus[]);
}

export function matchesFilter(
  filter: StreamFilter,
  event: { intentId: string; ownerAddress: string; status: IntentStatus },
): boolean {
  return (
    (filter.intentId === undefined || filter.intentId === event.intentId) &&
    (filter.owner === undefined || filter.owner === event.ownerAddress) &&
    (filter.statuses === undefined || filter.statuses.has(event.status))
  );
}
