import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import type { ReportData, ReportFilter } from '../../core/store/types.js';
import {
  legacyReportsResponseSchema,
  reportsQuerySchema,
  v3ReportsResponseSchema,
  type ReportsQuery,
} from '../schemas/read-reports.js';
import { renderLegacyReport, renderV3Report } from '../wire/report-shapes.js';
import { READ_WINDOW_MS } from './read-window.js';

/**
 * `GET /sms/3/reports` and `GET /sms/1/reports` drain one queue: a report handed out by either is
 * gone from both. Each renders every report in its own shape, whichever API sent the message.
 */
export function registerReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const consume = (accountId: string, query: ReportsQuery): Promise<ReportData[]> =>
    ctx.store.reports.consume(reportFilter(accountId, ctx.clock.now(), query));

  app.get<{ Querystring: ReportsQuery }>(
    '/sms/3/reports',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: ['SMS'],
        summary: 'Pull delivery reports (each report is returned once)',
        querystring: reportsQuerySchema,
        response: { 200: v3ReportsResponseSchema },
      },
    },
    async (request) => ({ results: (await consume(request.accountId, request.query)).map(renderV3Report) }),
  );

  app.get<{ Querystring: ReportsQuery }>(
    '/sms/1/reports',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: ['SMS (legacy)'],
        summary: 'Pull delivery reports in the legacy shape (each report is returned once)',
        querystring: reportsQuerySchema,
        response: { 200: legacyReportsResponseSchema },
      },
    },
    async (request) => ({ results: (await consume(request.accountId, request.query)).map(renderLegacyReport) }),
  );
}

/** The store filter of a reports query; the SMS APIs and RCS drain separate queues (`api`). */
export function reportFilter(accountId: string, now: number, query: ReportsQuery, api: 'sms' | 'rcs' = 'sms'): ReportFilter {
  const filter: ReportFilter = { accountId, api, since: now - READ_WINDOW_MS, limit: query.limit };
  if (query.bulkId) filter.bulkId = query.bulkId;
  if (query.messageId) filter.messageId = query.messageId;
  if (query.entityId) filter.entityId = query.entityId;
  if (query.applicationId) filter.applicationId = query.applicationId;
  if (query.campaignReferenceId) filter.campaignReferenceId = query.campaignReferenceId;
  return filter;
}
