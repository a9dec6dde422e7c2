import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { OutboxItem } from '../store/types.js';
import { attemptSchema, attemptWire, itemSchema, itemWire, limitSchema, tags, urlFilterSchema } from './webhook-wire.js';
import { registerWebhookItemRoutes } from './item-routes.js';

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
  url?: string;
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
            url: urlFilterSchema,
            limit: limitSchema,
          },
        },
        response: { 200: { type: 'object', required: ['results'], properties: { results: { type: 'array', items: itemSchema } } } },
      },
    },
    async (request) => {
      const { state, limit, url } = request.query;
      const items = await ctx.store.outbox.listItems(request.accountId, state, limit, url);
      return { results: items.map(itemWire) };
    },
  );

  registerWebhookItemRoutes(app, ctx);
}
