import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { textOf } from '../console/messages/message-row.js';
import { formatInfobipTime } from '../core/infobip-time.js';
import { normalizeNumber } from '../core/phone-number.js';
import { dropEmptyQueryValues } from '../core/query-params.js';
import type { PhoneMessage, PhoneSummary } from '../core/store/types.js';
import {
  phoneMessagesResponseSchema,
  phoneParamsSchema,
  phoneQuerySchema,
  phonesQuerySchema,
  phonesResponseSchema,
  type PhoneParams,
  type PhoneQuery,
  type PhonesQuery,
} from './phone-schemas.js';
import { TAG } from './schemas.js';

/** The virtual phones of an account: the list of them, and one phone's messages. */
export function registerSandboxPhoneRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: PhonesQuery }>(
    '/sandbox/1/phones',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: [TAG],
        summary: 'Every virtual phone of the account that received or sent something, most recent first',
        querystring: phonesQuerySchema,
        response: { 200: phonesResponseSchema },
      },
    },
    async (request) => {
      const phones = await ctx.store.phones.summaries(request.accountId, request.query.limit);
      return { phones: phones.map(renderSummary) };
    },
  );

  app.get<{ Params: PhoneParams; Querystring: PhoneQuery }>(
    '/sandbox/1/phones/:number/messages',
    {
      preValidation: dropEmptyQueryValues,
      schema: {
        tags: [TAG],
        summary: 'What a virtual phone received (and, with include=sent, sent), newest first (e.g. to read a one-time code)',
        params: phoneParamsSchema,
        querystring: phoneQuerySchema,
        response: { 200: phoneMessagesResponseSchema },
      },
    },
    async (request) => {
      const number = normalizeNumber(request.params.number);
      const includeSent = request.query.include === 'sent';
      const entries = await ctx.store.phones.list(request.accountId, number, request.query.limit, { includeSent });
      return { number, messages: entries.map(renderPhoneMessage) };
    },
  );
}

function renderSummary(phone: PhoneSummary): Record<string, unknown> {
  const wire: Record<string, unknown> = { number: phone.number, lastAt: formatInfobipTime(phone.lastAt), received: phone.received, sent: phone.sent };
  const lastText = phone.last.text ?? (phone.last.content === undefined ? undefined : textOf(phone.last.content));
  if (lastText !== undefined) wire.lastText = lastText;
  return wire;
}

function renderPhoneMessage(entry: PhoneMessage): Record<string, unknown> {
  const wire: Record<string, unknown> = { channel: entry.channel, direction: entry.direction ?? 'received' };
  if (entry.messageId !== undefined) wire.messageId = entry.messageId;
  if (entry.from !== undefined) wire.from = entry.from;
  if (entry.to !== undefined) wire.to = entry.to;
  if (entry.text !== undefined) wire.text = entry.text;
  wire.receivedAt = formatInfobipTime(entry.receivedAt);
  if (entry.content !== undefined) wire.content = entry.content;
  if (entry.payload !== undefined) wire.payload = entry.payload;
  return wire;
}
