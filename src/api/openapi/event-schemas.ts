/**
 * The JSON a GET /events message carries: an intent event (src/events/wire-event.ts) or a gap notice
 * (src/api/events/event-stream.ts), with the status, kind and type lists taken from the code.
 */
import { EVENT_TYPES, PING_EVENT_TYPE } from '../../events/event-types.ts';
import { INTENT_STATUSES, TRANSACTION_KINDS, TRANSACTION_STATUSES } from '../../store/index.ts';
import type { Gap } from '../events/event-stream.ts';
import { ADDRESS, INTENT_ID } from '../events/stream-request.ts';

/** Ping is what `switchyard webhooks test` sends to a webhook; a stream never carries it. */
export const STREAM_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== PING_EVENT_TYPE);

const TRANSACTION = {
  type: 'object',
  description: 'the receipt transaction whose status changed (transaction.* events only)',
  required: ['kind', 'status', 'chainId', 'txnHash'],
  properties: {
    kind: { type: 'string', enum: TRANSACTION_KINDS },
    status: { type: 'string', enum: TRANSACTION_STATUSES },
    chainId: { type: ['integer', 'null'] },
    txnHash: { type: ['string', 'null'], description: 'null until the transaction has a hash' },
  },
};

const INTENT_EVENT = {
  type: 'object',
  description: 'one change of an intent, as webhooks deliver it too (docs/webhooks.md)',
  required: ['id', 'type', 'createdAt', 'data'],
  properties: {
    id: {
      type: 'integer',
      minimum: 1,
      description: "the project's event number (1, 2, 3… in commit order), also the message's SSE id",
    },
    type: {
      type: 'string',
      enum: STREAM_EVENT_TYPES,
      description: 'intent.<status> for a status change, transaction.<kind> for a receipt transaction',
    },
    createdAt: { type: 'string', format: 'date-time' },
    data: {
      type: 'object',
      required: ['intentId', 'ownerAddress', 'status', 'receiptStates'],
      properties: {
        intentId: { type: 'string', pattern: INTENT_ID.source, description: 'lower case' },
        ownerAddress: { type: 'string', pattern: ADDRESS.source, description: 'lower case' },
        status: {
          type: 'string',
          enum: INTENT_STATUSES,
          description: "the intent's status after the change",
        },
        receiptStates: {
          type: 'array',
          items: { type: 'string', enum: TRANSACTION_STATUSES },
          minItems: 3,
          maxItems: 4,
          description:
            'deposit, origin, destination, then refund once there is one; spelled as stored (RELAYED, which /rpc/Trails spells SENT)',
        },
        transaction: TRANSACTION,
      },
    },
  },
};

/** Keyed by Gap's reasons, so a new reason does not compile until it is described here. */
const GAP_VARIANTS = {
  deleted: {
    description: "events from…to are past the log's retention",
    fields: { from: { type: 'integer' }, to: { type: 'integer' } },
  },
  'beyond-latest': {
    description:
      "Last-Event-ID is above the project's latest event (a database reset): the stream goes on from latest",
    fields: { lastEventId: { type: 'integer' }, latest: { type: 'integer' } },
  },
} satisfies Record<Gap['reason'], { description: string; fields: Record<string, unknown> }>;

const STREAM_GAP = {
  description: 'events the stream cannot send; the stream goes on after it',
  oneOf: Object.entries(GAP_VARIANTS).map(([reason, { description, fields }]) => ({
    type: 'object',
    description,
    required: ['reason', ...Object.keys(fields)],
    properties: { reason: { const: reason }, ...fields },
  })),
};

export const EVENT_SCHEMAS = { IntentEvent: INTENT_EVENT, StreamGap: STREAM_GAP };
