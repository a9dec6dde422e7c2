import { errorSchema, platformSchema, priceSchema, statusSchema, wire } from '../../sms/schemas/read-common.js';
import { v3LogsParams, v3StyleLogsResponseSchema } from '../../sms/schemas/read-logs.js';

/**
 * JSON schemas of `GET /rcs/2/reports` and `GET /rcs/2/logs`. Their queries are those of SMS v3
 * (reports: the same; logs: without mcc/mnc), so ReportsQuery and LogsQuery type them. Response
 * schemas also drive serialization, which drops any key not listed, so each lists every field the
 * renderers in rcs/wire can emit.
 */
const { str, int, dateTime } = wire;

export { reportsQuerySchema as rcsReportsQuerySchema } from '../../sms/schemas/read-reports.js';

export const rcsLogsQuerySchema = { type: 'object', properties: v3LogsParams } as const;

const conversationSchema = {
  type: 'object',
  description: 'Switchboard keeps no conversations: `id` is always null.',
  properties: { canInitiate: { type: 'boolean' }, id: { type: ['string', 'null'] } },
} as const;

export const interactionTypeSchema = {
  type: 'string',
  enum: ['BASIC_MESSAGE', 'SINGLE_MESSAGE', 'RICH_MESSAGE', 'RICH_MEDIA_MESSAGE'],
  description: 'The structure of the RCS message sent; absent on the report of an SMS failover.',
} as const;

export const rcsReportSchema = {
  type: 'object',
  properties: {
    bulkId: str,
    messageId: str,
    to: str,
    sender: str,
    channel: {
      type: 'string',
      enum: ['RCS', 'SMS'],
      description: 'Only for a message sent with a failover: the channel this report is of.',
    },
    price: priceSchema,
    status: statusSchema,
    error: errorSchema,
    conversation: conversationSchema,
    interactionType: interactionTypeSchema,
    sentAt: dateTime,
    doneAt: dateTime,
    messageCount: int,
    mccMnc: str,
    callbackData: str,
    platform: platformSchema,
    campaignReferenceId: str,
  },
} as const;

export const rcsReportsResponseSchema = {
  type: 'object',
  properties: { results: { type: 'array', items: rcsReportSchema } },
} as const;

const rcsContentSchema = {
  type: 'object',
  description: 'The RCS content as sent (TEXT, FILE, CARD, CAROUSEL or PROVIDER_TEMPLATE), echoed whole.',
  required: ['type'],
  properties: { type: { type: 'string', enum: ['TEXT', 'FILE', 'CARD', 'CAROUSEL', 'PROVIDER_TEMPLATE'] } },
  additionalProperties: true,
} as const;

export const rcsLogsResponseSchema = v3StyleLogsResponseSchema(rcsContentSchema, {});
