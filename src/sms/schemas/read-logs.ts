import { arrayParamSchema, limitParamSchema } from '../../core/query-params.js';
import {
  errorSchema,
  generalStatusParam,
  LIMIT_DESCRIPTION,
  platformFilterParams,
  platformSchema,
  priceSchema,
  statusSchema,
  wire,
} from './read-common.js';
import type { StatusGroupName } from '../../core/pipeline/statuses.js';

/** Query of both log endpoints; v3 names sender/destination, legacy names them from/to. */
export interface LogsQuery {
  mcc?: string;
  mnc?: string;
  sender?: string;
  destination?: string;
  from?: string;
  to?: string;
  bulkId?: string[];
  messageId?: string[];
  campaignReferenceId?: string[];
  generalStatus?: StatusGroupName;
  sentSince?: string;
  sentUntil?: string;
  limit: number;
  entityId?: string;
  applicationId?: string;
  useCursor?: boolean;
  cursor?: string;
}

const SENT_FORMAT = "Format yyyy-MM-dd'T'HH:mm:ss.SSSZ; +00:00, Z, 0 to 6 fraction digits and no offset (UTC) are also accepted.";

const commonParams = {
  bulkId: arrayParamSchema('Only messages of these bulks.'),
  messageId: arrayParamSchema('Only these messages.'),
  generalStatus: generalStatusParam,
  sentSince: { type: 'string', description: `Only messages sent at or after this instant. ${SENT_FORMAT}` },
  sentUntil: { type: 'string', description: `Only messages sent at or before this instant. ${SENT_FORMAT}` },
  limit: limitParamSchema(50, 1000, LIMIT_DESCRIPTION),
  ...platformFilterParams,
  campaignReferenceId: arrayParamSchema('Only messages sent with these campaign reference ids.'),
} as const;

/** SMS logs also filter on the network; RCS logs do not. */
const networkParams = {
  mcc: { type: 'string', description: 'Mobile country code.' },
  mnc: { type: 'string', description: 'Mobile network code; requires mcc.' },
} as const;

/** The parameters of the v3-generation logs (SMS v3 and RCS v2) besides mcc/mnc. */
export const v3LogsParams = {
  ...commonParams,
  sender: { type: 'string', description: 'Only messages from this sender.' },
  destination: { type: 'string', description: 'Only messages to this destination.' },
  useCursor: {
    type: 'boolean',
    description: 'Page with cursors: the response then carries `cursor`, with `nextCursor` while more results may follow.',
  },
  cursor: { type: 'string', description: 'The `nextCursor` of the previous page; omit on the first call.' },
} as const;

export const v3LogsQuerySchema = {
  type: 'object',
  properties: { ...v3LogsParams, ...networkParams },
} as const;

export const legacyLogsQuerySchema = {
  type: 'object',
  properties: {
    ...commonParams,
    ...networkParams,
    from: { type: 'string', description: 'Only messages from this sender.' },
    to: { type: 'string', description: 'Only messages to this destination.' },
  },
} as const;

const { str, int, dateTime } = wire;

const contentSchema = {
  type: 'object',
  description: 'Text content `{text}` or binary content `{hex, dataCoding?, esmClass?}`.',
  properties: { text: str, hex: str, dataCoding: int, esmClass: int },
} as const;

/** A v3-style logs page: the log fields SMS v3 and RCS share, with the channel's content and extra fields. */
export const v3StyleLogsResponseSchema = <Content extends object, Extra extends object>(content: Content, extra: Extra) =>
  ({
    type: 'object',
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            sender: str,
            destination: str,
            bulkId: str,
            messageId: str,
            sentAt: dateTime,
            doneAt: dateTime,
            messageCount: int,
            price: priceSchema,
            status: statusSchema,
            error: errorSchema,
            platform: platformSchema,
            content,
            campaignReferenceId: str,
            ...extra,
          },
        },
      },
      cursor: { type: 'object', properties: { limit: int, nextCursor: str } },
    },
  }) as const;

export const v3LogsResponseSchema = v3StyleLogsResponseSchema(contentSchema, { mccMnc: str });

export const legacyLogsResponseSchema = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          bulkId: str,
          messageId: str,
          to: str,
          from: str,
          text: str,
          sentAt: dateTime,
          doneAt: dateTime,
          smsCount: int,
          mccMnc: str,
          price: priceSchema,
          status: statusSchema,
          error: errorSchema,
          applicationId: str,
          entityId: str,
          campaignReferenceId: str,
        },
      },
    },
  },
} as const;
