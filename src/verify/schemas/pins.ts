import { stringMapSchema, text, wireBoolean, wireInteger, wireString, type StringMap } from '../../core/schema-fragments.js';
import { MAX_ID_LENGTH } from './applications.js';

/** PINs: send (`/2fa/2/pin`, `/pin/voice`), resend, verify, and the verifications of a number. */

export interface SendPinBody {
  applicationId: string;
  messageId: string;
  to: string;
  from?: string;
  placeholders?: StringMap;
  trackDelivery?: boolean;
}

export interface ResendPinBody {
  placeholders?: StringMap;
  trackDelivery?: boolean;
}

export interface VerifyPinBody {
  pin: string;
}

export interface PinParams {
  pinId: string;
}

export interface SendPinQuery {
  ncNeeded: boolean;
}

export interface VerificationsQuery {
  msisdn: string;
  verified?: boolean;
  sent?: boolean;
}

const placeholdersSchema = stringMapSchema('Values of the template\'s {{placeholders}}, keyed by name without braces; "pin" is not one of them.');
const trackDeliverySchema = {
  type: 'boolean',
  description: "Delivery reports of the PIN's SMS through the account's subscriptions, and externalMessageId in the answer; false when absent.",
} as const;

export const sendPinBodySchema = {
  type: 'object',
  required: ['applicationId', 'messageId', 'to'],
  properties: {
    applicationId: text(MAX_ID_LENGTH, 1, 'Id of the application.'),
    messageId: text(MAX_ID_LENGTH, 1, 'Id of the message template.'),
    to: text(64, 1, 'Phone number in international format, e.g. 41793026727.'),
    from: text(64, 1, "Sender (SMS) or caller id (voice), instead of the template's senderId."),
    placeholders: placeholdersSchema,
    trackDelivery: trackDeliverySchema,
  },
} as const;

export const sendPinQuerySchema = {
  type: 'object',
  properties: {
    ncNeeded: { type: 'boolean', default: true, description: 'Look the number up before sending; an unreachable number gets no SMS.' },
  },
} as const;

export const resendPinBodySchema = {
  type: 'object',
  properties: { placeholders: placeholdersSchema, trackDelivery: trackDeliverySchema },
} as const;

export const verifyPinBodySchema = {
  type: 'object',
  required: ['pin'],
  properties: { pin: text(64, 1, 'The PIN as the user typed it; letters in any case.') },
} as const;

export const pinParamsSchema = {
  type: 'object',
  required: ['pinId'],
  properties: { pinId: { ...text(MAX_ID_LENGTH, 1), description: 'Id of the PIN, from its send.' } },
} as const;

export const verificationsQuerySchema = {
  type: 'object',
  required: ['msisdn'],
  properties: {
    msisdn: text(64, 1, 'Phone number the PINs went to.'),
    verified: { type: 'boolean', description: 'Only PINs verified (true) or not (false).' },
    sent: { type: 'boolean', description: 'Only PINs a message or call carried (true) or not (false).' },
  },
} as const;

export const startAuthenticationSchema = {
  type: 'object',
  required: ['pinId', 'to'],
  additionalProperties: false,
  properties: {
    pinId: wireString,
    to: wireString,
    ncStatus: wireString,
    smsStatus: wireString,
    callStatus: wireString,
    externalMessageId: wireString,
  },
} as const;

export const verifyPinResponseSchema = {
  type: 'object',
  required: ['pinId', 'msisdn', 'verified', 'attemptsRemaining'],
  additionalProperties: false,
  properties: { pinId: wireString, msisdn: wireString, verified: wireBoolean, attemptsRemaining: wireInteger, pinError: wireString },
} as const;

export const verificationsSchema = {
  type: 'object',
  required: ['verifications'],
  additionalProperties: false,
  properties: {
    verifications: {
      type: 'array',
      items: {
        type: 'object',
        required: ['msisdn', 'verified', 'sentAt'],
        additionalProperties: false,
        properties: { msisdn: wireString, verified: wireBoolean, verifiedAt: wireInteger, sentAt: wireInteger },
      },
    },
  },
} as const;
