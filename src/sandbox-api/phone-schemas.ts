import { dateTime, phoneNumber } from './schemas.js';

/** JSON schemas of the virtual phones' routes (/sandbox/1/phones). */

export interface PhoneParams {
  number: string;
}

export interface PhoneQuery {
  limit: number;
  include?: 'sent';
}

export interface PhonesQuery {
  limit: number;
}

export const phoneParamsSchema = {
  type: 'object',
  required: ['number'],
  properties: { number: phoneNumber('The virtual phone number; a leading + is ignored.') },
} as const;

export const phoneQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50, description: 'Newest entries to return.' },
    include: {
      type: 'string',
      enum: ['sent'],
      description: '`sent`: also what the phone sent through the sandbox API (inbound SMS, RCS replies, suggestion taps, locations).',
    },
  },
} as const;

export const phoneMessagesResponseSchema = {
  type: 'object',
  properties: {
    number: { type: 'string' },
    messages: {
      type: 'array',
      description: 'What the phone received (and with include=sent, what it sent), newest first.',
      items: {
        type: 'object',
        properties: {
          channel: { type: 'string', enum: ['SMS', 'RCS', 'VOICE'], description: 'SMS, RCS, or VOICE (what a call said to the phone).' },
          direction: { type: 'string', enum: ['received', 'sent'], description: 'Whether the phone received or sent it.' },
          messageId: { type: 'string', description: 'The message received (SMS, RCS) or sent; the call (VOICE).' },
          from: { type: 'string', description: 'Received: the sender of an SMS or RCS message; the caller of a call.' },
          to: { type: 'string', description: 'Sent: the number or RCS sender written to.' },
          text: { type: 'string', description: "SMS text (for binary SMS the hex payload); an RCS TEXT message's text or the text of a tapped suggestion; what a call said." },
          receivedAt: { ...dateTime, description: 'When the phone received it, or sent it.' },
          content: { type: 'object', additionalProperties: true, description: 'RCS received: the content, as sent (with its type).' },
          payload: { type: 'object', additionalProperties: true, description: 'VOICE: the call and action that spoke, and the language; sent RCS: the suggestion tapped or location shared.' },
        },
      },
    },
  },
} as const;

export const phonesQuerySchema = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 200, description: 'Phones to return.' } },
} as const;

export const phonesResponseSchema = {
  type: 'object',
  required: ['phones'],
  properties: {
    phones: {
      type: 'array',
      description: 'Most recent activity first.',
      items: {
        type: 'object',
        required: ['number', 'lastAt', 'received', 'sent'],
        properties: {
          number: { type: 'string' },
          lastAt: { ...dateTime, description: 'When it last received or sent something.' },
          received: { type: 'integer', description: 'Entries it received (messages, what calls said).' },
          sent: { type: 'integer', description: 'Messages it sent through the sandbox API.' },
          lastText: { type: 'string', description: 'The text of the newest entry, when it has one.' },
        },
      },
    },
  },
} as const;
