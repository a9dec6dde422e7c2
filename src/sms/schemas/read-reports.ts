import { limitParamSchema } from '../../core/query-params.js';
import { errorSchema, LIMIT_DESCRIPTION, platformFilterParams, platformSchema, priceSchema, statusSchema, wire } from './read-common.js';

export interface ReportsQuery {
  bulkId?: string;
  messageId?: string;
  limit: number;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
}

export const reportsQuerySchema = {
  type: 'object',
  properties: {
    bulkId: { type: 'string', description: 'Only reports of messages of this bulk.' },
    messageId: { type: 'string', description: 'Only the report of this message.' },
    limit: limitParamSchema(50, 1000, LIMIT_DESCRIPTION),
    ...platformFilterParams,
    campaignReferenceId: { type: 'string', description: 'Only messages sent with this campaign reference id.' },
  },
} as const;

const { str, int, dateTime } = wire;

export const v3ReportSchema = {
  type: 'object',
  properties: {
    bulkId: str,
    messageId: str,
    to: str,
    sender: str,
    sentAt: dateTime,
    doneAt: dateTime,
    messageCount: int,
    mccMnc: str,
    callbackData: str,
    price: priceSchema,
    status: statusSchema,
    error: errorSchema,
    platform: platformSchema,
    campaignReferenceId: str,
  },
} as const;

export const legacyReportSchema = {
  type: 'object',
  properties: {
    bulkId: str,
    messageId: str,
    to: str,
    from: str,
    sentAt: dateTime,
    doneAt: dateTime,
    smsCount: int,
    mccMnc: str,
    callbackData: str,
    price: priceSchema,
    status: statusSchema,
    error: errorSchema,
    entityId: str,
    applicationId: str,
    campaignReferenceId: str,
  },
} as const;

export const v3ReportsResponseSchema = {
  type: 'object',
  properties: { results: { type: 'array', items: v3ReportSchema } },
} as const;

export const legacyReportsResponseSchema = {
  type: 'object',
  properties: { results: { type: 'array', items: legacyReportSchema } },
} as const;
