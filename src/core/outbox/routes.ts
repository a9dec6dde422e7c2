import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { formatInfobipTime } from '../infobip-time.js';
import type { OutboxItem, WebhookAttempt } from '../store/types.js';

/**
 * Our own API (not Infobip's) to see what the outbox did: every POST attempt and every item, scoped to
 * the caller's account. Ids are strings like every id on the wire.
 */

interface AttemptsQuery {
  limit: number;
  before?: number;
}

interface ItemsQuery {
  limit: number;
  state?: OutboxItem['state'];
}

const tags = ['Webhooks'];

const limitSchema = { type: 'integer', minimum: 1, maximum: 1000, default: 50 } as const;

const attemptSchema = {
  type: 'object',
  required: ['id', 'url', 'itemCount', 'attempt', 'startedAt', 'durationMs', 'outcome'],
  properties: {
    id: { type: 'string', description: 'Attempt id; pass it as `before` to read older attempts.' },
    url: { type: 'string' },
    itemCount: { type: 'integer', description: 'Reports or messages carried by this POST.' },
    attempt: { type: 'integer', description: '1 for the first POST of these items, 2 for the first retry…' },
    startedAt: { type: 'string', format: 'date-time' },
    durationMs: { type: 'integer' },
    httpStatus: { type: 'integer', description: 'Absent when no HTTP response arrived.' },
    error: { type: 'string', description: 'Network error or timeout, when no HTTP response arrived.' },
    outcome: { type: 'string', enum: ['delivered', 'retry', 'failed'] },
  },
} as const;

const itemSchema = {
  type: 'object',
  required: ['id', 'url', 'format', 'itemCount', 'attempts', 'state', 'dueAt'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    itemCount: { type: 'integer', description: 'Reports or messages in this item (up to one POST: 100 reports); they are posted, retried and settled together.' },
    format: { type: 'string', description: '`sms-dlr`/`rcs-dlr` delivery reports, `rcs-seen` seen reports, `sms-mo`/`rcs-mo` inbound messages, `call-event` one call event, …' },
    stream: { type: 'string', description: 'The ordered stream (a call id) of the item: its items are posted one at a time, in order.' },
    attempts: { type: 'integer', description: 'POSTs made so far.' },
    state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    dueAt: { type: 'string', format: 'date-time', description: 'When the next POST is due (pending items).' },
    lastError: { type: 'string' },
  },
} as const;

function attemptWire(a: WebhookAttempt): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    id: String(a.id),
    url: a.url,
    itemCount: a.payloadCount,
    attempt: a.attemptNo,
    startedAt: formatInfobipTime(a.startedAt),
    durationMs: a.durationMs,
    outcome: a.outcome,
  };
  if (a.httpStatus !== undefined) wire.httpStatus = a.httpStatus;
  if (a.error !== undefined) wire.error = a.error;
  return wire;
}

function itemWire(item: OutboxItem): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    id: String(item.id),
    url: item.url,
    itemCount: item.payloadCount,
    format: item.format,
    attempts: item.attempts,
    state: item.state,
    dueAt: formatInfobipTime(item.dueAt),
  };
  if (item.stream !== undefined) wire.stream = item.stream;
  if (item.lastError !== undefined) wire.lastError = item.lastError;
  return wire;
}

export function registerWebhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: AttemptsQuery }>(
    '/switchboard/1/webhooks/attempts',
    {
      schema: {
        tags,
        summary: 'List webhook delivery attempts, newest first',
        querystring: {
          type: 'object',
          properties: {
            limit: limitSchema,
            before: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only attempts with an id lower than this.' },
          },
        },
        response: { 200: { type: 'object', required: ['results'], properties: { results: { type: 'array', items: attemptSchema } } } },
      },
    },
    async (request) => {
      const { limit, before } = request.query;
      const attempts = await ctx.store.outbox.listAttempts(request.accountId, limit, before);
      return { results: attempts.map(attemptWire) };
    },
  );

  app.get<{ Querystring: ItemsQuery }>(
    '/switchboard/1/webhooks/items',
    {
      schema: {
        tags,
        summary: 'List webhook items (reports and messages to push, grouped per target), newest first',
        querystring: {
          type: 'object',
          properties: {
            state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
            limit: limitSchema,
          },
        },
        response: { 200: { type: 'object', required: ['results'], properties: { results: { type: 'array', items: itemSchema } } } },
      },
    },
    async (request) => {
      const items = await ctx.store.outbox.listItems(request.accountId, request.query.state, request.query.limit);
      return { results: items.map(itemWire) };
    },
  );
}
