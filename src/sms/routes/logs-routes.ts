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
import { logFilterFrom } from './logs-filter.js';
import { readLogsPage, type LogsPage } from './logs-page.js';

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
    async (request): Promise<LogsPage<V3SmsLog>> => {
      const query = request.query;
      const filter = logFilterFrom(query, {
        accountId: request.accountId,
        now: ctx.clock.now(),
        sender: query.sender,
        destination: query.destination,
        mcc: query.mcc,
        mnc: query.mnc,
      });
      return readLogsPage(ctx.store.messages, filter, query, renderV3Log);
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
        mcc: query.mcc,
        mnc: query.mnc,
      });
      return { results: (await ctx.store.messages.listLogs(filter)).map(renderLegacyLog) };
    },
  );
}
