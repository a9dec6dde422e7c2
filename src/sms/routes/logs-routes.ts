import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import {
  legacyLogsQuerySchema,
  legacyLogsResponseSchema,
  v3LogsQuerySchema,
  v3LogsResponseSchema,
  type LogsQuery,
} from '../schemas/read-logs.js';
import { renderLegacyLog, renderV3Log, type V3SmsLog } from '../wire/log-shapes.js';
import { decodeCursor, encodeCursor, logFilterFrom } from './logs-filter.js';

interface V3LogsResponse {
  results: V3SmsLog[];
  cursor?: { limit: number; nextCursor?: string };
}

/** Message logs: repeatable reads, newest first, last 48 hours. */
export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: LogsQuery }>(
    '/sms/3/logs',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: ['SMS'],
        summary: 'Message logs of the last 48 hours, newest first',
        description:
          'The response carries `cursor` only when paging with cursors (`useCursor=true`, or a `cursor` given); ' +
          '`cursor.nextCursor` is present while more results may follow.',
        querystring: v3LogsQuerySchema,
        response: { 200: v3LogsResponseSchema },
      },
    },
    async (request): Promise<V3LogsResponse> => {
      const query = request.query;
      const filter = logFilterFrom(query, {
        accountId: request.accountId,
        now: ctx.clock.now(),
        sender: query.sender,
        destination: query.destination,
      });
      // A cursor from a previous page means the caller is paging, whether or not it repeated useCursor.
      const paging = query.useCursor === true || query.cursor !== undefined;
      if (!paging) return { results: (await ctx.store.messages.listLogs(filter)).map(renderV3Log) };

      if (query.cursor !== undefined) filter.beforePk = decodeCursor(query.cursor);
      const rows = await ctx.store.messages.listLogs({ ...filter, limit: filter.limit + 1 });
      const page = rows.slice(0, filter.limit);
      const cursor: V3LogsResponse['cursor'] = { limit: filter.limit };
      if (rows.length > filter.limit) cursor.nextCursor = encodeCursor(page[page.length - 1]!.pk);
      return { results: page.map(renderV3Log), cursor };
    },
  );

  app.get<{ Querystring: LogsQuery }>(
    '/sms/1/logs',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: ['SMS (legacy)'],
        summary: 'Message logs of the last 48 hours in the legacy shape, newest first',
        querystring: legacyLogsQuerySchema,
        response: { 200: legacyLogsResponseSchema },
      },
    },
    async (request) => {
      const query = request.query;
      const filter = logFilterFrom(query, {
        accountId: request.accountId,
        now: ctx.clock.now(),
        sender: query.from,
        destination: query.to,
      });
      return { results: (await ctx.store.messages.listLogs(filter)).map(renderLegacyLog) };
    },
  );
}
