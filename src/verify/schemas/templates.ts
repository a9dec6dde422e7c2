import { text, wireInteger, wireString } from '../../core/schema-fragments.js';
import type { PinType } from '../../core/store/types.js';
import { TWO_FACTOR_SPEECH_LANGUAGES } from '../../voice/media/speech/languages.js';
import { MAX_ID_LENGTH } from './applications.js';

/** 2FA message templates: `POST/GET /2fa/2/applications/{appId}/messages` and `GET/PUT …/{msgId}`. */

export const PIN_TYPES = ['NUMERIC', 'ALPHA', 'HEX', 'ALPHANUMERIC'] as const satisfies readonly PinType[];
export const PIN_PLACEHOLDER = '{{pin}}';
export const DEFAULT_PIN_LENGTH = 4;
export const MAX_PIN_LENGTH = 16;
export const MAX_MESSAGE_TEXT_LENGTH = 4_096;

export interface IndiaDltBody {
  contentTemplateId?: string;
  principalEntityId: string;
  teleMarketerId?: string;
}

export interface TemplateBody {
  messageText?: string;
  pinType?: PinType;
  pinLength?: number;
  senderId?: string;
  language?: string;
  voiceName?: string;
  repeatDTMF?: string;
  speechRate?: number;
  regional?: { indiaDlt?: IndiaDltBody };
}

export interface TemplateParams {
  appId: string;
  msgId: string;
}

const regionalSchema = {
  type: 'object',
  properties: {
    indiaDlt: {
      type: 'object',
      required: ['principalEntityId'],
      properties: { contentTemplateId: text(30), principalEntityId: text(30), teleMarketerId: text(255) },
    },
  },
} as const;

const templateProperties = {
  messageText: text(MAX_MESSAGE_TEXT_LENGTH, 1, `Text of the message, sent by SMS or read out; must hold ${PIN_PLACEHOLDER} and may hold other {{placeholders}}.`),
  pinType: { type: 'string', enum: [...PIN_TYPES], description: 'Alphabet of the PIN (letters are upper case).' },
  pinLength: { type: 'integer', minimum: 1, maximum: MAX_PIN_LENGTH, description: `Length of the PIN: 1 to ${MAX_PIN_LENGTH}; ${DEFAULT_PIN_LENGTH} when absent.` },
  senderId: text(64, 1, 'Sender of the SMS, or caller id of the call.'),
  language: { type: 'string', enum: [...TWO_FACTOR_SPEECH_LANGUAGES], description: 'Language a voice PIN is read in; en when absent.' },
  voiceName: text(64, 1, "Voice of a voice PIN: accepted and returned; the sandbox speaks with its language's one voice."),
  repeatDTMF: { type: 'string', pattern: '^[0-9A-D*#]{1,16}$', description: 'Keys that make a voice PIN call read the message again, e.g. 1#.' },
  speechRate: { type: 'number', minimum: 0.5, maximum: 2, description: 'Speed of a voice PIN: 0.5 to 2; 1 when absent.' },
  regional: regionalSchema,
} as const;

export const createTemplateBodySchema = {
  type: 'object',
  required: ['messageText', 'pinType'],
  properties: templateProperties,
} as const;

export const updateTemplateBodySchema = { type: 'object', properties: templateProperties } as const;

export const templateParamsSchema = {
  type: 'object',
  required: ['appId', 'msgId'],
  properties: {
    appId: { ...text(MAX_ID_LENGTH, 1), description: 'Id of the application.' },
    msgId: { ...text(MAX_ID_LENGTH, 1), description: 'Id of the message template.' },
  },
} as const;

const wireRegionalSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    indiaDlt: {
      type: 'object',
      additionalProperties: false,
      properties: { contentTemplateId: wireString, principalEntityId: wireString, teleMarketerId: wireString },
    },
  },
} as const;

export const templateSchema = {
  type: 'object',
  required: ['messageId', 'applicationId', 'messageText', 'pinPlaceholder', 'pinLength', 'pinType', 'language', 'speechRate'],
  additionalProperties: false,
  properties: {
    messageId: wireString,
    applicationId: wireString,
    messageText: wireString,
    pinPlaceholder: wireString,
    pinLength: wireInteger,
    pinType: wireString,
    senderId: wireString,
    language: wireString,
    voiceName: wireString,
    repeatDTMF: wireString,
    speechRate: { type: 'number' },
    regional: wireRegionalSchema,
  },
} as const;

export const templatesSchema = { type: 'array', items: templateSchema } as const;
