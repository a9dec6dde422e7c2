import { limitParamSchema } from '../../core/query-params.js';
import { LIMIT_DESCRIPTION, platformFilterParams, priceSchema, wire } from './read-common.js';

export interface InboxQuery {
  limit: number;
  applicationId?: string;
  entityId?: string;
  campaignReferenceId?: string;
}

export const inboxQuerySchema = {
  type: 'object',
  properties: {
    limit: limitParamSchema(50, 1000, LIMIT_DESCRIPTION),
    ...platformFilterParams,
    campaignReferenceId: { type: 'string', description: 'Only messages linked to this campaign reference id.' },
  },
} as const;

const { str, int, dateTime } = wire;

export const inboundMessageSchema = {
  type: 'object',
  properties: {
    messageId: str,
    from: str,
    to: str,
    text: str,
    cleanText: str,
    keyword: str,
    receivedAt: dateTime,
    smsCount: int,
    price: priceSchema,
    callbackData: str,
    applicationId: str,
    entityId: str,
    campaignReferenceId: str,
  },
} as const;

export const inboxResponseSchema = {
  type: 'object',
  properties: {
    results: { type: 'array', items: inboundMessageSchema },
    messageCount: { type: 'integer', description: 'Number of messages in results.' },
    pendingMessageCount: { type: 'integer', description: 'Messages still waiting to be pulled.' },
  },
} as const;
