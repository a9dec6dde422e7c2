import { MAX_WEBHOOK_URL_LENGTH } from '../../core/webhook-url.js';
import {
  deliveryTimeWindowSchema,
  int32Schema,
  languageCodeSchema,
  octetSchema,
  platformSchema,
  regionalSchema,
  scheduleSchema,
  stringSchema as str,
  transliterationSchema,
  urlOptionsSchema,
  validityPeriodSchema,
  type DeliveryTimeWindowBody,
  type LanguageValue,
  type PlatformBody,
  type ScheduleBody,
  type TransliterationValue,
  type ValidityPeriodBody,
} from './send-common.js';
import { statusSchema } from './read-common.js';

/** `POST /sms/3/messages` body, as validated by `sendV3BodySchema`. */
export interface SendV3Body {
  messages: SendV3Message[];
  options?: {
    schedule?: ScheduleBody;
    tracking?: Record<string, unknown>;
    includeSmsCountInResponse?: boolean;
    conversionTracking?: Record<string, unknown>;
  };
}

export interface SendV3Message {
  sender?: string;
  destinations: Array<{ to: string; messageId?: string; networkId?: number }>;
  content: {
    text?: string;
    transliteration?: TransliterationValue;
    language?: { languageCode?: LanguageValue; singleShift?: boolean; lockingShift?: boolean };
    hex?: string;
    dataCoding?: number;
    esmClass?: number;
  };
  options?: {
    platform?: PlatformBody;
    validityPeriod?: ValidityPeriodBody;
    deliveryTimeWindow?: DeliveryTimeWindowBody;
    campaignReferenceId?: string;
    regional?: Record<string, unknown>;
    flash?: boolean;
  };
  webhooks?: {
    delivery?: { url?: string; intermediateReport?: boolean; notify?: boolean };
    contentType?: string;
    callbackData?: string;
  };
}

const destinationSchema = {
  type: 'object',
  required: ['to'],
  properties: {
    to: str(64, 'Phone number in international format, e.g. 41793026727.'),
    messageId: str(200, 'Your id for this message; generated when absent. Must be unique in the account.'),
    networkId: int32Schema,
  },
} as const;

/**
 * `text` or `hex` decides the content kind (there is no `type` field). That exactly one of them is
 * present is checked in code, which can name the problem better than a `oneOf` failure.
 */
const contentSchema = {
  type: 'object',
  description: 'Text content (`text`, `transliteration`, `language`) or binary content (`hex`, `dataCoding`, `esmClass`): exactly one of `text` and `hex`.',
  properties: {
    text: str(),
    transliteration: transliterationSchema,
    language: {
      type: 'object',
      properties: {
        languageCode: languageCodeSchema,
        singleShift: { type: 'boolean' },
        lockingShift: { type: 'boolean' },
      },
    },
    hex: str(undefined, 'Pairs of hex digits, optionally separated by spaces, e.g. "0f c2 4a".'),
    dataCoding: octetSchema,
    esmClass: octetSchema,
  },
} as const;

const messageSchema = {
  type: 'object',
  required: ['destinations', 'content'],
  properties: {
    sender: str(),
    destinations: { type: 'array', minItems: 1, items: destinationSchema },
    content: contentSchema,
    options: {
      type: 'object',
      properties: {
        platform: platformSchema,
        validityPeriod: validityPeriodSchema,
        deliveryTimeWindow: deliveryTimeWindowSchema,
        campaignReferenceId: str(255),
        regional: regionalSchema,
        flash: { type: 'boolean' },
      },
    },
    webhooks: {
      type: 'object',
      properties: {
        delivery: {
          type: 'object',
          properties: {
            url: str(MAX_WEBHOOK_URL_LENGTH, 'Absolute http(s) URL delivery reports are pushed to.'),
            intermediateReport: { type: 'boolean' },
            notify: { type: 'boolean', description: 'false: push no delivery report at all.' },
          },
        },
        contentType: str(),
        callbackData: str(4000),
      },
    },
  },
} as const;

export const sendV3BodySchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    messages: { type: 'array', minItems: 1, items: messageSchema },
    options: {
      type: 'object',
      properties: {
        schedule: scheduleSchema,
        tracking: urlOptionsSchema,
        includeSmsCountInResponse: { type: 'boolean' },
        conversionTracking: {
          type: 'object',
          properties: { useConversionTracking: { type: 'boolean' }, conversionTrackingName: str() },
        },
      },
    },
  },
} as const;

/** The v3-style send answer: SMS v3 details a message's part count, RCS nothing. */
export const v3StyleSendResponseSchema = <Details extends object>(details: Details) =>
  ({
    type: 'object',
    required: ['bulkId', 'messages'],
    properties: {
      bulkId: { type: 'string' },
      messages: {
        type: 'array',
        items: {
          type: 'object',
          properties: { messageId: { type: 'string' }, status: statusSchema, destination: { type: 'string' }, details },
        },
      },
    },
  }) as const;

export const sendV3ResponseSchema = v3StyleSendResponseSchema({ type: 'object', properties: { messageCount: { type: 'integer' } } });
