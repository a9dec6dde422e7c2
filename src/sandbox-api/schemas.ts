import { ERROR, STATUS, isFinalGroup } from '../core/pipeline/statuses.js';
import { MAX_RULE_LATENCY_MS } from '../network/sandbox/rules.js';
import { SANDBOX_OUTCOMES } from '../network/sandbox/outcomes.js';

/** JSON schemas of the /sandbox/1 routes; they validate requests and document them in OpenAPI. */

export const TAG = 'Sandbox';
export const MAX_INBOUND_TEXT = 1600;
export const PHONE_PATTERN = '^\\+?[0-9]{1,20}$';

export const phoneNumber = (description: string) =>
  ({ type: 'string', pattern: PHONE_PATTERN, description, example: '41793026727' }) as const;
export const dateTime = { type: 'string', format: 'date-time', example: '2025-03-04T10:15:30.000+0000' } as const;

export interface InboundBody {
  from: string;
  to: string;
  text: string;
}

export const inboundBodySchema = {
  type: 'object',
  required: ['from', 'to', 'text'],
  additionalProperties: false,
  properties: {
    from: phoneNumber('The virtual phone sending the message (digits, optional leading +).'),
    to: phoneNumber('Your receiving number; INBOUND_MESSAGE subscriptions match on it.'),
    text: { type: 'string', minLength: 1, maxLength: MAX_INBOUND_TEXT, description: 'Message text.' },
  },
} as const;

export const inboundResponseSchema = {
  type: 'object',
  description: 'The message as handed to the inbound pipeline (webhook or GET /sms/1/inbox/reports).',
  properties: {
    messageId: { type: 'string', description: 'The inbound message id, as in the inbox and webhooks.' },
    from: { type: 'string' },
    to: { type: 'string' },
    text: { type: 'string' },
    smsCount: { type: 'integer', description: 'SMS parts the text takes.' },
    receivedAt: dateTime,
  },
} as const;

const digits = { type: 'string', pattern: PHONE_PATTERN } as const;

export const ruleSchema = {
  type: 'object',
  required: ['match', 'outcome'],
  additionalProperties: false,
  properties: {
    match: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      description: 'Every field given must match the destination (digits, a leading + ignored).',
      properties: {
        suffix: { ...digits, description: 'Destination ends with these digits.' },
        prefix: { ...digits, description: 'Destination starts with these digits.' },
        number: { ...digits, description: 'Destination is exactly this number.' },
      },
    },
    outcome: { type: 'string', enum: [...SANDBOX_OUTCOMES] },
    latencyMs: { type: 'integer', minimum: 0, maximum: MAX_RULE_LATENCY_MS, description: 'Receipt latency for matching messages.' },
    status: {
      type: 'string',
      enum: Object.values(STATUS).filter((s) => isFinalGroup(s.groupId)).map((s) => s.name),
      description: "Replaces the outcome's default final status.",
    },
    error: { type: 'string', enum: Object.keys(ERROR), description: "Replaces the outcome's default error." },
  },
} as const;

export const rulesBodySchema = {
  type: 'object',
  required: ['rules'],
  additionalProperties: false,
  properties: {
    rules: {
      type: 'array',
      maxItems: 1000,
      items: ruleSchema,
      description: 'Checked in order before the rules file and the built-in suffix table; the first match wins.',
    },
  },
} as const;

export const rulesResponseSchema = {
  type: 'object',
  properties: { rules: { type: 'array', items: ruleSchema } },
} as const;
