import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound, violation } from '../../core/errors/api-problem.js';
import { normalizeNumber } from '../../core/phone-number.js';
import { STATUS_GROUPS } from '../../core/pipeline/statuses.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import type { MessageBrowseFilter } from '../../core/store/types.js';
import { READ_WINDOW_MS } from '../../sms/routes/read-window.js';
import { messageDetail } from './message-detail.js';
import { messageRow } from './message-row.js';
import {
  MAX_SEQS,
  TAG,
  messageDetailSchema,
  messageParamsSchema,
  messagesQuerySchema,
  messagesResponseSchema,
  type MessageParams,
  type MessagesQuery,
} from './message-schemas.js';

function browseFilter(accountId: string, query: MessagesQuery, now: number): MessageBrowseFilter {
  const filter: MessageBrowseFilter = { accountId, since: now - READ_WINDOW_MS, limit: query.limit };
  if (query.seqs !== undefined) {
    const seqs = query.seqs.split(',');
    if (seqs.length > MAX_SEQS) throw violation('seqs', `at most ${MAX_SEQS} values`);
    filter.pks = [...new Set(seqs.map(Number))];
  }
  if (query.before !== undefined) filter.beforePk = query.before;
  if (query.channel !== undefined) filter.channel = query.channel;
  if (query.number !== undefined) {
    // Destinations are stored normalised; a sender is stored as given, with or without its +.
    const given = query.number.trim();
    filter.numbers = [...new Set([given, normalizeNumber(given)])];
  }
  if (query.status !== undefined) filter.statusGroupId = STATUS_GROUPS.indexOf(query.status);
  if (query.bulkId !== undefined) filter.bulkId = query.bulkId;
  if (query.text !== undefined) filter.text = query.text;
  return filter;
}

/**
 * Our own API for the console: the account's messages of every channel (the 48 hours the logs
 * read), newest first, and one message opened with its whole life.
 */
export function registerConsoleMessageRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: MessagesQuery }>(
    '/switchboard/1/messages',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: [TAG],
        summary: 'Messages of every channel, newest first, filtered',
        description:
          'What the console lists: SMS and RCS messages of the last 48 hours. Page with `before` (a `seq`), ' +
          'or ask for exactly the messages the live feed (/switchboard/1/events) named with `seqs`.',
        querystring: messagesQuerySchema,
        response: { 200: messagesResponseSchema },
      },
    },
    async (request, reply) => {
      const messages = await ctx.store.messages.browse(browseFilter(request.accountId, request.query, ctx.clock.now()));
      // The rows hold exactly the schema's keys; for a page of 10 000, JSON.stringify measured
      // several times faster than the schema's compiled serializer.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ results: messages.map(messageRow) }));
    },
  );

  app.get<{ Params: MessageParams }>(
    '/switchboard/1/messages/:messageId',
    {
      schema: {
        tags: [TAG],
        summary: 'One message: its content, encoding, life (accepted, submitted, each report, final) and webhook attempts',
        params: messageParamsSchema,
        response: { 200: messageDetailSchema },
      },
    },
    async (request) => {
      const message = await ctx.store.messages.get(request.accountId, request.params.messageId);
      if (!message) throw notFound();
      return messageDetail(ctx.store, message, ctx.clock.now());
    },
  );
}
