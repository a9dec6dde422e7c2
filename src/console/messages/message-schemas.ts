import { errorSchema, statusSchema } from '../../sms/schemas/read-common.js';
import { attemptDetailSchema } from '../../core/outbox/webhook-wire.js';

/** JSON schemas of /switchboard/1/messages: what the console lists and opens. */

export const TAG = 'Console';
export const MAX_PAGE = 10_000;
export const MAX_SEQS = 1_000;
/** Status groups a message can be filtered by (ACCEPTED is never stored). */
export const STATUS_FILTERS = ['PENDING', 'UNDELIVERABLE', 'DELIVERED', 'EXPIRED', 'REJECTED'] as const;

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const dateTime = { type: 'string', format: 'date-time', example: '2025-03-04T10:15:30.000+0000' } as const;

export interface MessagesQuery {
  limit: number;
  before?: number;
  seqs?: string;
  channel?: 'SMS' | 'RCS';
  number?: string;
  status?: (typeof STATUS_FILTERS)[number];
  bulkId?: string;
  text?: string;
}

export const messagesQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1000, description: 'Newest messages to return.' },
    before: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A `seq`: only older messages.' },
    seqs: {
      type: 'string',
      maxLength: MAX_SEQS * 17,
      pattern: '^[0-9]{1,16}(,[0-9]{1,16})*$',
      description: `Comma-separated \`seq\` values (at most ${MAX_SEQS}): exactly those messages, as the live feed names them.`,
    },
    channel: { type: 'string', enum: ['SMS', 'RCS'] },
    number: { type: 'string', minLength: 1, maxLength: 64, description: 'The sender or the destination (a leading + is ignored).' },
    status: { type: 'string', enum: [...STATUS_FILTERS], description: 'The status group.' },
    bulkId: { type: 'string', minLength: 1, maxLength: 255 },
    text: { type: 'string', minLength: 1, maxLength: 200, description: 'Part of the text, any case (ASCII letters only on SQLite).' },
  },
} as const;

export const messageRowSchema = {
  type: 'object',
  required: ['seq', 'messageId', 'bulkId', 'channel', 'api', 'to', 'encoding', 'parts', 'status', 'createdAt'],
  properties: {
    seq: { type: 'string', description: 'The internal sequence number: newer messages have larger ones.' },
    messageId: str,
    bulkId: str,
    channel: { type: 'string', enum: ['SMS', 'RCS'] },
    api: { type: 'string', enum: ['sms3', 'sms2', 'rcs2'], description: 'The API it was sent with.' },
    from: str,
    to: str,
    text: { type: 'string', description: "SMS text (a binary message's hex); RCS: the text, or a card's title or description." },
    contentType: { type: 'string', description: 'RCS: the content type (TEXT, FILE, CARD, CAROUSEL, PROVIDER_TEMPLATE).' },
    encoding: { type: 'string', enum: ['GSM7', 'UCS2', 'BINARY', 'RCS'] },
    parts: { type: 'integer', description: 'Messages (SMS parts) it takes.' },
    status: statusSchema,
    error: errorSchema,
    createdAt: dateTime,
    sentAt: dateTime,
    doneAt: dateTime,
    failoverOf: { type: 'string', description: 'The RCS message this SMS is the failover of.' },
  },
} as const;

export const messagesResponseSchema = {
  type: 'object',
  required: ['results'],
  properties: { results: { type: 'array', items: messageRowSchema, description: 'Newest first.' } },
} as const;

export interface MessageParams {
  messageId: string;
}

export const messageParamsSchema = {
  type: 'object',
  required: ['messageId'],
  properties: { messageId: { type: 'string', maxLength: 200 } },
} as const;

const lifeEventSchema = {
  type: 'object',
  required: ['at', 'event'],
  properties: {
    at: dateTime,
    event: { type: 'string', enum: ['ACCEPTED', 'SUBMITTED', 'REPORT', 'FINAL'] },
    status: statusSchema,
    error: errorSchema,
    detail: { type: 'string', description: 'SUBMITTED: the network; REPORT: where it was pushed.' },
  },
} as const;

export const messageDetailSchema = {
  type: 'object',
  required: ['message', 'content', 'validUntil', 'encoding', 'life', 'webhooks'],
  properties: {
    message: messageRowSchema,
    content: { type: 'object', additionalProperties: true, description: 'The content as stored.' },
    callbackData: str,
    validUntil: dateTime,
    webhookUrl: { type: 'string', description: "The message's own delivery report URL." },
    encoding: {
      type: 'object',
      required: ['encoding', 'characters', 'parts'],
      properties: {
        encoding: { type: 'string', enum: ['GSM7', 'UCS2', 'BINARY', 'RCS'] },
        characters: { type: 'integer', description: 'Characters of the text (bytes of a binary message).' },
        parts: int,
        partTexts: { type: 'array', items: str, description: 'SMS text: what each part carries, as a phone splits it.' },
        unicodeCharacters: { type: 'array', items: str, description: 'The characters that made it UCS-2.' },
      },
    },
    life: { type: 'array', items: lifeEventSchema, description: 'Oldest first.' },
    webhooks: {
      type: 'array',
      description: 'The webhook items that carried its reports, with their attempts.',
      items: {
        type: 'object',
        required: ['itemId', 'url', 'format', 'state', 'attempts'],
        properties: {
          itemId: str,
          url: str,
          format: str,
          state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
          attempts: { type: 'array', items: attemptDetailSchema },
        },
      },
    },
  },
} as const;
