import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import { logFilterFrom } from '../../sms/routes/logs-filter.js';
import { readLogsPage, type LogsPage } from '../../sms/routes/logs-page.js';
import { reportFilter } from '../../sms/routes/reports-pull.js';
import type { LogsQuery } from '../../sms/schemas/read-logs.js';
import type { ReportsQuery } from '../../sms/schemas/read-reports.js';
import {
  rcsLogsQuerySchema,
  rcsLogsResponseSchema,
  rcsReportsQuerySchema,
  rcsReportsResponseSchema,
} from '../schemas/read.js';
import { renderRcsDeliveryReport } from '../wire/delivery-report.js';
import { renderRcsLog, type RcsLog } from '../wire/log.js';

/**
 * The RCS read side, on the SMS read machinery: pulled delivery reports (a queue of their own:
 * RCS messages and their SMS failovers, never SMS API messages) and RCS message logs.
 */
export function registerRcsReadRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: ReportsQuery }>(
    '/rcs/2/reports',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: ['RCS'],
        summary: 'Pull RCS delivery reports (each report is returned once)',
        description:
          'Reports of the last 48 hours. A message sent with an SMS failover reports under its RCS messageId, ' +
          'with `channel` telling which attempt the report is of.',
        querystring: rcsReportsQuerySchema,
        response: { 200: rcsReportsResponseSchema },
      },
    },
    async (request) => {
      const filter = reportFilter(request.accountId, ctx.clock.now(), request.query, 'rcs');
      return { results: (await ctx.store.reports.consume(filter)).map(renderRcsDeliveryReport) };
    },
  );

  app.get<{ Querystring: LogsQuery }>(
    '/rcs/2/logs',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: ['RCS'],
        summary: 'RCS message logs of the last 48 hours, newest first',
        description:
          'Lists RCS messages (an SMS failover is in GET /sms/3/logs). The response carries `cursor` only when ' +
          'paging with cursors (`useCursor=true`, or a `cursor` given); `cursor.nextCursor` is present while more ' +
          'results may follow.',
        querystring: rcsLogsQuerySchema,
        response: { 200: rcsLogsResponseSchema },
      },
    },
    async (request): Promise<LogsPage<RcsLog>> => {
      const query = request.query;
      const filter = logFilterFrom(query, {
        accountId: request.accountId,
        now: ctx.clock.now(),
        sender: query.sender,
        destination: query.destination,
        channel: 'RCS',
      });
      return readLogsPage(ctx.store.messages, filter, query, renderRcsLog);
    },
  );
}
