/** JSON schemas of the /sandbox/1/rcs routes: a test or a person acting as an end user's RCS phone. */

export const RCS_TAG = 'Sandbox RCS';

const PHONE_PATTERN = '^\\+?[0-9]{1,20}$';
const dateTime = { type: 'string', format: 'date-time', example: '2025-03-04T10:15:30.000+0000' } as const;

/** Limits of what an end user sends back: a text as long as an RCS text, a suggestion as it was offered. */
export const MAX_RCS_INBOUND_TEXT = 3072;

export interface RcsMessageParams {
  messageId: string;
}

export const rcsMessageParamsSchema = {
  type: 'object',
  required: ['messageId'],
  properties: { messageId: { type: 'string', minLength: 1, maxLength: 200, description: 'The id of an RCS message you sent.' } },
} as const;

export const seenResponseSchema = {
  type: 'object',
  properties: {
    messageId: { type: 'string' },
    seenAt: dateTime,
    pushed: { type: 'integer', description: 'Webhooks the seen report was queued for: its seen URL, or else the SEEN subscriptions that matched.' },
  },
} as const;

export interface RcsInboundBody {
  from: string;
  to: string;
  text?: string;
  suggestion?: { text: string; postbackData: string };
  location?: { latitude: number; longitude: number };
}

/** Exactly one of these is given (checked in the route, so the 400 says so plainly). */
export const INBOUND_KINDS = ['text', 'suggestion', 'location'] as const;

export const rcsInboundBodySchema = {
  type: 'object',
  required: ['from', 'to'],
  additionalProperties: false,
  description: 'Exactly one of text, suggestion or location.',
  properties: {
    from: { type: 'string', pattern: PHONE_PATTERN, description: 'The virtual phone (end user) writing (digits, optional leading +).', example: '385911234567' },
    to: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Your RCS sender (agent); INBOUND_MESSAGE subscriptions of channel RCS match on it.',
      example: 'DemoSender',
    },
    text: { type: 'string', minLength: 1, maxLength: MAX_RCS_INBOUND_TEXT, description: 'A text the user typed.' },
    suggestion: {
      type: 'object',
      required: ['text', 'postbackData'],
      additionalProperties: false,
      description: 'A suggestion the user tapped, as it was offered.',
      properties: {
        text: { type: 'string', minLength: 1, maxLength: 25 },
        postbackData: { type: 'string', minLength: 1, maxLength: 2024 },
      },
    },
    location: {
      type: 'object',
      required: ['latitude', 'longitude'],
      additionalProperties: false,
      description: 'A location the user shared.',
      properties: {
        latitude: { type: 'number', minimum: -90, maximum: 90 },
        longitude: { type: 'number', minimum: -180, maximum: 180 },
      },
    },
  },
} as const;

export const rcsInboundResponseSchema = {
  type: 'object',
  description: 'The message as pushed to RCS INBOUND_MESSAGE subscriptions.',
  properties: {
    messageId: { type: 'string', description: 'The inbound message id, as in the webhook.' },
    from: { type: 'string' },
    to: { type: 'string' },
    receivedAt: dateTime,
    message: { type: 'object', additionalProperties: true, description: 'The content as in the webhook: TEXT, SUGGESTION or LOCATION.' },
    pairedMessageId: { type: 'string', description: 'The RCS message this one answers: the newest the sender sent this user in 48 hours.' },
    pushed: { type: 'integer', description: 'Subscriptions it was queued for; with none it is dropped (RCS inbound cannot be pulled).' },
  },
} as const;
