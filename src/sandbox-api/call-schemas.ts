/** JSON schemas of the /sandbox/1/calls routes: a test or a person acting as the far end of calls. */

export const CALLS_TAG = 'Sandbox calls';

const PHONE_PATTERN = '^\\+?[0-9]{1,20}$';
const dateTime = { type: 'string', format: 'date-time', example: '2025-03-04T10:15:30.000+0000' } as const;

export interface InboundCallBody {
  from: string;
  to: string;
  callsConfigurationId?: string;
  connectTimeout?: number;
}

export const inboundCallBodySchema = {
  type: 'object',
  required: ['from', 'to'],
  additionalProperties: false,
  properties: {
    from: { type: 'string', pattern: PHONE_PATTERN, description: 'The virtual phone calling (digits, optional leading +).', example: '41793026727' },
    to: { type: 'string', pattern: PHONE_PATTERN, description: 'Your number it calls.', example: '41790000000' },
    callsConfigurationId: {
      type: 'string',
      minLength: 1,
      maxLength: 128,
      description: "The calls configuration whose subscriptions get the call's events; may be left out when the account has exactly one.",
    },
    connectTimeout: {
      type: 'integer',
      minimum: 1,
      maximum: 600,
      default: 60,
      description: 'Seconds the caller waits for the application to answer before hanging up (CANCELLED).',
    },
  },
} as const;

export interface CallIdParams {
  callId: string;
}

export const callIdParamsSchema = {
  type: 'object',
  required: ['callId'],
  properties: { callId: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;

export interface DtmfBody {
  digits: string;
}

export const dtmfBodySchema = {
  type: 'object',
  required: ['digits'],
  additionalProperties: false,
  properties: {
    digits: { type: 'string', pattern: '^[0-9*#A-D]{1,64}$', description: 'Keys the phone presses, in order (0-9, *, #, A-D).', example: '1234#' },
  },
} as const;

export const timelineResponseSchema = {
  type: 'object',
  properties: {
    callId: { type: 'string' },
    entries: {
      type: 'array',
      description: 'What happened on the call, oldest first: states, speech and audio played, keys pressed and sent.',
      items: {
        type: 'object',
        additionalProperties: true,
        properties: { at: dateTime, type: { type: 'string', example: 'SAY' } },
      },
    },
  },
} as const;
