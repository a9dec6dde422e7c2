import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import type { InboundFilter } from '../../core/store/types.js';
import { inboxQuerySchema, inboxResponseSchema, type InboxQuery } from '../schemas/read-inbox.js';
import { renderInbound } from '../wire/report-shapes.js';
import { READ_WINDOW_MS } from './read-window.js';

/** `GET /sms/1/inbox/reports`: inbound messages received since the previous pull, each returned once. */
export function registerInboxRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: InboxQuery }>(
    '/sms/1/inbox/reports',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: ['SMS (legacy)'],
        summary: 'Pull inbound SMS (each message is returned once)',
        querystring: inboxQuerySchema,
        response: { 200: inboxResponseSchema },
      },
    },
    async (request) => {
      const query = request.query;
      const filter: InboundFilter = {
        accountId: request.accountId,
        since: ctx.clock.now() - READ_WINDOW_MS,
        limit: query.limit,
      };
      if (query.applicationId) filter.applicationId = query.applicationId;
      if (query.entityId) filter.entityId = query.entityId;
      if (query.campaignReferenceId) filter.campaignReferenceId = query.campaignReferenceId;
      const { messages, pending } = await ctx.store.inbound.consume(filter);
      return { results: messages.map(renderInbound), messageCount: messages.length, pendingMessageCount: pending };
    },
  );
}
