import { LANGUAGE_CODES, TRANSLITERATION_CODES } from '../encoding/index.js';

/**
 * Schema fragments shared by the v3 and legacy send bodies, with the TypeScript shape each one
 * validates. Constraints follow Infobip's published schema; unknown properties are ignored.
 */

export const DELIVERY_DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
export const VALIDITY_TIME_UNITS = ['SECONDS', 'MINUTES', 'HOURS'] as const;
export const SPEED_LIMIT_TIME_UNITS = ['MINUTE', 'HOUR', 'DAY'] as const;
export const IYS_RECIPIENT_TYPES = ['BIREYSEL', 'TACIR'] as const;

export type SpeedLimitTimeUnit = (typeof SPEED_LIMIT_TIME_UNITS)[number];
export type ValidityTimeUnit = (typeof VALIDITY_TIME_UNITS)[number];
export type TransliterationValue = (typeof TRANSLITERATION_CODES)[number];
export type LanguageValue = (typeof LANGUAGE_CODES)[number];

const str = (maxLength?: number, description?: string) => ({
  type: 'string',
  ...(maxLength === undefined ? {} : { maxLength }),
  ...(description === undefined ? {} : { description }),
});
const int32 = { type: 'integer', minimum: -2147483648, maximum: 2147483647 } as const;

export const stringSchema = str;
export const int32Schema = int32;
/** SMPP `data_coding` / `esm_class` are single octets. */
export const octetSchema = { type: 'integer', minimum: 0, maximum: 255 } as const;

export const transliterationSchema = { type: 'string', enum: [...TRANSLITERATION_CODES] } as const;
export const languageCodeSchema = { type: 'string', enum: [...LANGUAGE_CODES] } as const;

export interface DeliveryTimeBody {
  hour: number;
  minute: number;
}

export interface DeliveryTimeWindowBody {
  days: string[];
  from?: DeliveryTimeBody;
  to?: DeliveryTimeBody;
}

const deliveryTimeSchema = {
  type: 'object',
  required: ['hour', 'minute'],
  properties: {
    hour: { type: 'integer', minimum: 0, maximum: 23 },
    minute: { type: 'integer', minimum: 0, maximum: 59 },
  },
} as const;

export const deliveryTimeWindowSchema = {
  type: 'object',
  description: 'UTC. Give both `from` and `to` or neither; `to` at least one hour after `from`.',
  required: ['days'],
  properties: {
    days: { type: 'array', minItems: 1, items: { type: 'string', enum: [...DELIVERY_DAYS] } },
    from: deliveryTimeSchema,
    to: deliveryTimeSchema,
  },
} as const;

export interface RegionalBody {
  indiaDlt?: { contentTemplateId?: string; principalEntityId: string; telemarketerId?: string };
  turkeyIys?: { brandCode?: number; recipientType: (typeof IYS_RECIPIENT_TYPES)[number] };
  southKorea?: { title?: string; resellerCode?: number };
}

export const regionalSchema = {
  type: 'object',
  properties: {
    indiaDlt: {
      type: 'object',
      required: ['principalEntityId'],
      properties: { contentTemplateId: str(), principalEntityId: str(), telemarketerId: str() },
    },
    turkeyIys: {
      type: 'object',
      required: ['recipientType'],
      properties: { brandCode: int32, recipientType: { type: 'string', enum: [...IYS_RECIPIENT_TYPES] } },
    },
    southKorea: { type: 'object', properties: { title: str(66), resellerCode: int32 } },
  },
} as const;

export interface UrlOptionsBody {
  shortenUrl?: boolean;
  trackClicks?: boolean;
  trackingUrl?: string;
  removeProtocol?: boolean;
  customDomain?: string;
}

export const urlOptionsSchema = {
  type: 'object',
  properties: {
    shortenUrl: { type: 'boolean' },
    trackClicks: { type: 'boolean' },
    trackingUrl: str(),
    removeProtocol: { type: 'boolean' },
    customDomain: str(),
  },
} as const;

export interface SpeedLimitBody {
  amount: number;
  timeUnit?: SpeedLimitTimeUnit;
}

export const sendingSpeedLimitSchema = {
  type: 'object',
  required: ['amount'],
  properties: {
    amount: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'Messages per time unit.' },
    timeUnit: { type: 'string', enum: [...SPEED_LIMIT_TIME_UNITS], description: 'Default MINUTE.' },
  },
} as const;

export interface ValidityPeriodBody {
  amount: number;
  timeUnit?: ValidityTimeUnit;
}

export const validityPeriodSchema = {
  type: 'object',
  required: ['amount'],
  properties: {
    amount: { type: 'integer', minimum: 1, maximum: 2147483647 },
    timeUnit: { type: 'string', enum: [...VALIDITY_TIME_UNITS], description: 'Default MINUTES.' },
  },
  description: 'At most 48 hours (longer periods are shortened to 48 hours); 48 hours when absent.',
} as const;

export interface PlatformBody {
  entityId?: string;
  applicationId?: string;
}

export const platformSchema = { type: 'object', properties: { entityId: str(255), applicationId: str(255) } } as const;

export interface ScheduleBody {
  bulkId?: string;
  sendAt?: string;
  sendingSpeedLimit?: SpeedLimitBody;
}

/** `options.schedule` of the v3 generation of send bodies (SMS v3, RCS v2). */
export const scheduleSchema = {
  type: 'object',
  properties: {
    bulkId: str(100),
    sendAt: str(undefined, 'Date-time, e.g. 2025-03-04T10:15:30.000+0000; at most 180 days ahead.'),
    sendingSpeedLimit: sendingSpeedLimitSchema,
  },
} as const;
