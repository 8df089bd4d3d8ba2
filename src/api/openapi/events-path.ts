/**
 * GET /events in the OpenAPI document: its parameters, its Server-Sent Events answer and its errors, from
 * the route's own parsing (stream-request.ts), frames (FeedEvent, gapFrame) and error classes.
 */
import { FeedEvent } from '../../events/feed-event.ts';
import { DatabaseUnavailableError } from '../../store/errors.ts';
import { INTENT_STATUSES, type IntentEventRecord } from '../../store/index.ts';
import { FAILED_AUTH_RATE_LIMIT } from '../access.ts';
import { AccessKeyNotFoundError, FailedAuthLimitedError, RateLimitedError } from '../errors/rpc-errors.ts';
import { gapFrame } from '../events/event-stream.ts';
import { HEARTBEAT_MS, MissingStreamKeyError } from '../events/event-stream-route.ts';
import {
  ADDRESS,
  EVENT_ID,
  INTENT_ID,
  parseStreamRequest,
  type StreamQueryParameter,
} from '../events/stream-request.ts';
import { DEFAULT_RATE_LIMIT } from '../rate-limiter.ts';
import { CLOSING, type ErrorExample, errorResponses } from './error-responses.ts';

const ONCE = 'At most once: a repeated parameter is InvalidArgument.';

/** Keyed by the route's parameters, so one added to the route does not compile until it is described. */
const QUERY: Record<Exclude<StreamQueryParameter, 'accessKey'>, Record<string, unknown>> = {
  intentId: {
    description: `Only this intent's events (any case). ${ONCE}`,
    schema: { type: 'string', pattern: INTENT_ID.source },
  },
  owner: {
    description: `Only events of intents this address owns (any case). ${ONCE}`,
    schema: { type: 'string', pattern: ADDRESS.source },
  },
  status: {
    description:
      "Only events after which the intent has one of these statuses: comma-separated, any case (status=SUCCEEDED also gets a later change of a SUCCEEDED intent's refund). " +
      ONCE,
    style: 'form',
    explode: false,
    schema: { type: 'array', minItems: 1, items: { type: 'string', enum: INTENT_STATUSES } },
  },
  lastEventId: {
    description: `Resume after this event id on a first connection (the Last-Event-ID header wins when both are sent). ${ONCE}`,
    schema: { type: 'string', pattern: EVENT_ID.source },
  },
};

const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  in: 'header',
  description:
    'Resume after this event id: the events after it are sent from the log first, then the stream goes on live. EventSource sends it itself when it reconnects.',
  schema: { type: 'string', pattern: EVENT_ID.source },
};

const SAMPLE: IntentEventRecord = {
  projectId: 1,
  seq: 42,
  intentId: `0x${'ab'.repeat(32)}`,
  ownerAddress: `0x${'cd'.repeat(20)}`,
  transactionKind: 'origin',
  status: 'EXECUTING',
  receiptStates: { deposit: 'SUCCEEDED', origin: 'MINING', destination: 'UNKNOWN', refund: null },
  chainId: 31337,
  txnHash: `0x${'ef'.repeat(32)}`,
  createdAt: new Date('2025-01-01T00:00:00.000Z'),
};

const STREAM_EXAMPLE = [
  ':\n\n',
  gapFrame({ reason: 'deleted', from: 1, to: 40 }),
  new FeedEvent({
    ...SAMPLE,
    seq: 41,
    transactionKind: null,
    receiptStates: { ...SAMPLE.receiptStates, origin: 'PENDING' },
  }).sseFrame,
  new FeedEvent(SAMPLE).sseFrame,
  ':\n\n',
].join('');

const STREAM_DESCRIPTION = [
  'Server-Sent Events until either side closes. Each intent event is a message with `id:` (its event number) and `data:` (an IntentEvent as JSON).',
  '`event: gap` messages (no id, data: a StreamGap) say which events cannot be sent.',
  `A comment line (\`:\`) opens the stream and comes every ${HEARTBEAT_MS / 1000} s.`,
].join(' ');

const SSE_MESSAGES = {
  message: { id: 'the event number', data: { $ref: '#/components/schemas/IntentEvent' } },
  gap: { id: 'none', data: { $ref: '#/components/schemas/StreamGap' } },
};

/** The refusal parseStreamRequest gives for this query, as the route answers it. */
function refusalOf(query: Record<string, unknown>): unknown {
  try {
    parseStreamRequest(query, undefined);
  } catch (error) {
    return error;
  }
  throw new Error(`GET /events accepted ${JSON.stringify(query)}; the OpenAPI example needs a refusal`);
}

const ERRORS: ErrorExample[] = [
  { key: 'badFilter', summary: 'a malformed filter', error: refusalOf({ owner: '0x12' }) },
  {
    key: 'unknownParameter',
    summary: 'a parameter GET /events does not take',
    error: refusalOf({ ownr: '0x12' }),
  },
  { key: 'noKey', summary: 'no access key', error: new MissingStreamKeyError() },
  { key: 'unknownKey', summary: 'an unknown or revoked key', error: new AccessKeyNotFoundError() },
  {
    key: 'rateLimited',
    summary: "over the key's rate limit",
    error: new RateLimitedError(1, DEFAULT_RATE_LIMIT.perSecond),
  },
  {
    key: 'badKeys',
    summary: 'too many unknown keys from this address',
    error: new FailedAuthLimitedError(1, FAILED_AUTH_RATE_LIMIT),
  },
  {
    key: 'database',
    summary: 'the key cannot be looked up',
    error: new DatabaseUnavailableError(new Error('down')),
  },
  CLOSING,
  { key: 'internal', summary: 'an unexpected failure (logged)', error: new Error('unexpected') },
];

export const EVENTS_PATH = {
  get: {
    operationId: 'events',
    summary: 'The project\'s intent events as Server-Sent Events (docs/api.md, "Event stream")',
    description:
      "Filters are AND-ed. Without Last-Event-ID the stream starts with the changes after the request. Each connection is checked and counted against the key's rate limit like a method call; errors before the stream starts are webrpc JSON errors.",
    security: [{ accessKey: [] }, { accessKeyQuery: [] }],
    parameters: [
      ...Object.entries(QUERY).map(([name, spec]) => ({ name, in: 'query', required: false, ...spec })),
      LAST_EVENT_ID,
    ],
    responses: {
      200: {
        description: 'the stream',
        headers: {
          'Cache-Control': { schema: { type: 'string', const: 'no-cache, no-transform' } },
          'X-Accel-Buffering': {
            description: 'keeps nginx from buffering the stream',
            schema: { type: 'string', const: 'no' },
          },
        },
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: STREAM_DESCRIPTION },
            example: STREAM_EXAMPLE,
            'x-sse-messages': SSE_MESSAGES,
          },
        },
      },
      ...errorResponses(ERRORS),
    },
  },
};
