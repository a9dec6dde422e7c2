import { MAX_WEBHOOK_URL_LENGTH } from '../../core/webhook-url.js';
import {
  deliveryTimeWindowSchema,
  languageCodeSchema,
  octetSchema,
  regionalSchema,
  sendingSpeedLimitSchema,
  stringSchema as str,
  transliterationSchema,
  urlOptionsSchema,
  type DeliveryTimeWindowBody,
  type LanguageValue,
  type SpeedLimitBody,
  type TransliterationValue,
} from './send-common.js';
import { statusSchema } from './read-common.js';

/** What `/sms/2/text/advanced` and `/sms/2/binary/advanced` messages have in common. */
export interface LegacyMessageBase {
  from?: string;
  destinations: Array<{ to: string; messageId?: string }>;
  flash?: boolean;
  validityPeriod?: number;
  sendAt?: string;
  deliveryTimeWindow?: DeliveryTimeWindowBody;
  notifyUrl?: string;
  notifyContentType?: string;
  intermediateReport?: boolean;
  callbackData?: string;
  regional?: Record<string, unknown>;
  entityId?: string;
  applicationId?: string;
  campaignReferenceId?: string;
}

export interface LegacyTextMessage extends LegacyMessageBase {
  text?: string;
  language?: { languageCode?: LanguageValue };
  transliteration?: TransliterationValue;
}

export interface LegacyBinaryMessage extends LegacyMessageBase {
  binary: { hex: string; dataCoding?: number; esmClass?: number };
}

export interface LegacyBodyBase {
  bulkId?: string;
  sendingSpeedLimit?: SpeedLimitBody;
}

export interface SendLegacyTextBody extends LegacyBodyBase {
  messages: LegacyTextMessage[];
  urlOptions?: Record<string, unknown>;
  tracking?: Record<string, unknown>;
  includeSmsCountInResponse?: boolean;
}

export interface SendLegacyBinaryBody extends LegacyBodyBase {
  messages: LegacyBinaryMessage[];
}

/** Legacy caller message ids longer than this are clipped, not rejected. */
export const LEGACY_MESSAGE_ID_MAX = 200;

const messageProperties = (platformIdMax: number) => ({
  from: str(undefined, 'Sender id.'),
  destinations: {
    type: 'array',
    minItems: 1,
    items: {
      type: 'object',
      required: ['to'],
      properties: {
        to: str(64, 'Phone number in international format, e.g. 41793026727.'),
        messageId: str(undefined, 'Your id for this message (clipped to 200 characters); generated when absent.'),
      },
    },
  },
  flash: { type: 'boolean' },
  validityPeriod: {
    type: 'integer',
    minimum: 1,
    description: 'Minutes; at most 2880 (48 hours), longer periods are shortened. 2880 when absent.',
  },
  sendAt: str(undefined, 'Date-time, e.g. 2025-03-04T10:15:30.000+0000; at most 180 days ahead.'),
  deliveryTimeWindow: deliveryTimeWindowSchema,
  notifyUrl: str(MAX_WEBHOOK_URL_LENGTH, 'Absolute http(s) URL delivery reports are pushed to.'),
  notifyContentType: str(),
  intermediateReport: { type: 'boolean' },
  callbackData: str(4000),
  regional: regionalSchema,
  entityId: str(platformIdMax),
  applicationId: str(platformIdMax),
  campaignReferenceId: str(255),
});

export const sendLegacyTextBodySchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    bulkId: str(),
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['destinations'],
        properties: {
          ...messageProperties(50),
          text: str(),
          language: { type: 'object', properties: { languageCode: languageCodeSchema } },
          transliteration: transliterationSchema,
        },
      },
    },
    sendingSpeedLimit: sendingSpeedLimitSchema,
    urlOptions: urlOptionsSchema,
    tracking: {
      type: 'object',
      properties: { track: str(), type: str(), baseUrl: str(), processKey: str() },
    },
    includeSmsCountInResponse: { type: 'boolean' },
  },
} as const;

export const sendLegacyBinaryBodySchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    bulkId: str(),
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['destinations', 'binary'],
        properties: {
          ...messageProperties(66),
          binary: {
            type: 'object',
            required: ['hex'],
            properties: {
              hex: str(undefined, 'Pairs of hex digits, optionally separated by spaces, e.g. "0f c2 4a".'),
              dataCoding: octetSchema,
              esmClass: octetSchema,
            },
          },
        },
      },
    },
    sendingSpeedLimit: sendingSpeedLimitSchema,
  },
} as const;

export const sendLegacyResponseSchema = {
  type: 'object',
  properties: {
    bulkId: { type: 'string' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          to: { type: 'string' },
          status: statusSchema,
          messageId: { type: 'string' },
          smsCount: { type: 'integer' },
        },
      },
    },
  },
} as const;
