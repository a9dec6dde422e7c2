import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound, violation } from '../errors/api-problem.js';
import { webhookBodyText } from './webhook-body.js';
import { attemptDetailSchema, attemptDetailWire, itemDetailSchema, itemSchema, itemWire, tags, targetSchema, targetsWire } from './webhook-wire.js';
import type { OutboxItem } from '../store/types.js';

interface ItemParams {
  itemId: string;
}

const itemParamsSchema = {
  type: 'object',
  required: ['itemId'],
  properties: { itemId: { type: 'string', maxLength: 20, description: 'The item id, as the items list gives it.' } },
} as const;

/** An item id from the path; one that cannot be an id names no item. */
function itemIdOf(raw: string): number {
  const id = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw notFound();
  return id;
}

function itemDetailWire(item: OutboxItem): Record<string, unknown> {
  return { ...itemWire(item), requestBody: webhookBodyText(item.format, [item.payloads], item.payloadCount) };
}

/**
 * One webhook item with what was posted and every attempt (the receiver's answers), a retry now, and
 * the account's webhook URLs with how their items fare: what the console's webhooks view shows.
 */
export function registerWebhookItemRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: ItemParams }>(
    '/switchboard/1/webhooks/items/:itemId',
    {
      schema: {
        tags,
        summary: 'One webhook item: the body that is posted, and every attempt with the start of its answer',
        params: itemParamsSchema,
        response: {
          200: {
            type: 'object',
            required: ['item', 'attempts'],
            properties: { item: itemDetailSchema, attempts: { type: 'array', items: attemptDetailSchema, description: 'Oldest first.' } },
          },
        },
      },
    },
    async (request) => {
      const item = await ctx.store.outbox.getItem(request.accountId, itemIdOf(request.params.itemId));
      if (!item) throw notFound();
      const attempts = await ctx.store.outbox.attemptsOfItems(request.accountId, [item.id], item.createdAt);
      return { item: itemDetailWire(item), attempts: attempts.map(attemptDetailWire) };
    },
  );

  app.post<{ Params: ItemParams }>(
    '/switchboard/1/webhooks/items/:itemId/retry',
    {
      config: { optionalBody: true },
      schema: {
        tags,
        summary: 'Post a webhook item now',
        description:
          'A failed item becomes pending again and gets one more attempt (more if that one fails and attempts remain); ' +
          'a pending one is due at once, and so are the items of its stream behind it. A delivered item is not sent again (400).',
        params: itemParamsSchema,
        response: { 200: itemSchema },
      },
    },
    async (request) => {
      const outcome = await ctx.store.outbox.retryNow(request.accountId, itemIdOf(request.params.itemId), ctx.clock.now());
      if (outcome.kind === 'unknown') throw notFound();
      if (outcome.kind === 'delivered') throw violation('itemId', 'the item was delivered; it is not sent again');
      ctx.engine.nudgeWebhooks();
      return itemWire(outcome.item);
    },
  );

  app.get(
    '/switchboard/1/webhooks/targets',
    {
      schema: {
        tags,
        summary: 'The webhook URLs of the account: their items by state and their last attempt, failing ones first',
        response: { 200: { type: 'object', required: ['results'], properties: { results: { type: 'array', items: targetSchema } } } },
      },
    },
    async (request) => ({ results: targetsWire(await ctx.store.outbox.targets(request.accountId)) }),
  );
}
