import { text, wireBoolean, wireInteger, wireString } from '../../core/schema-fragments.js';

/** 2FA applications: `POST/GET /2fa/2/applications`, `GET/PUT …/{appId}`, and Switchboard's protection of one. */

export const TAGS = ['2FA'];

/** Application and template ids: Infobip's are 32 upper-case hex characters; a path id is at most 128. */
export const MAX_ID_LENGTH = 128;
export const MAX_PIN_ATTEMPTS = 1_000;

export interface ConfigurationBody {
  pinAttempts?: number;
  allowMultiplePinVerifications?: boolean;
  pinTimeToLive?: string;
  verifyPinLimit?: string;
  sendPinPerApplicationLimit?: string;
  sendPinPerPhoneNumberLimit?: string;
}

export interface ApplicationBody {
  name: string;
  enabled?: boolean;
  configuration?: ConfigurationBody;
}

export interface ApplicationParams {
  appId: string;
}

const timeText = (description: string) => ({ ...text(32, 1), description }) as const;

export const configurationBodySchema = {
  type: 'object',
  properties: {
    pinAttempts: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_PIN_ATTEMPTS,
      description: `Wrong guesses a PIN allows: 1 to ${MAX_PIN_ATTEMPTS}; 10 when absent.`,
    },
    allowMultiplePinVerifications: { type: 'boolean', description: 'Whether a verified PIN verifies again; true when absent.' },
    pinTimeToLive: timeText('How long a PIN lives, {timeLength}{timeUnit} with ms, s, m, h or d, at most 1 year; 15m when absent.'),
    verifyPinLimit: timeText('Verifications per phone number, {attempts}/{timeLength}{timeUnit}, window at most 1 day; 1/3s when absent.'),
    sendPinPerApplicationLimit: timeText('PINs sent by the application, {attempts}/{timeLength}{timeUnit}, window at most 1 year; 10000/1d when absent.'),
    sendPinPerPhoneNumberLimit: timeText('PINs sent to one phone number, {attempts}/{timeLength}{timeUnit}, window at most 1 year; 3/1d when absent.'),
  },
} as const;

export const applicationBodySchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: text(255, 1, 'Name of the application: 1 to 255 characters.'),
    enabled: { type: 'boolean', description: 'A disabled application sends no PIN; true when absent.' },
    configuration: configurationBodySchema,
  },
} as const;

export const applicationParamsSchema = {
  type: 'object',
  required: ['appId'],
  properties: { appId: { ...text(MAX_ID_LENGTH, 1), description: 'Id of the application.' } },
} as const;

export const configurationSchema = {
  type: 'object',
  required: ['pinAttempts', 'allowMultiplePinVerifications', 'pinTimeToLive', 'verifyPinLimit', 'sendPinPerApplicationLimit', 'sendPinPerPhoneNumberLimit'],
  additionalProperties: false,
  properties: {
    pinAttempts: wireInteger,
    allowMultiplePinVerifications: wireBoolean,
    pinTimeToLive: wireString,
    verifyPinLimit: wireString,
    sendPinPerApplicationLimit: wireString,
    sendPinPerPhoneNumberLimit: wireString,
  },
} as const;

export const applicationSchema = {
  type: 'object',
  required: ['applicationId', 'name', 'configuration', 'enabled'],
  additionalProperties: false,
  properties: { applicationId: wireString, name: wireString, configuration: configurationSchema, enabled: wireBoolean },
} as const;

export const applicationsSchema = { type: 'array', items: applicationSchema } as const;

// Switchboard's own protections: beyond Infobip's API, under /switchboard/1.

export interface ProtectionBody {
  allowedCountryCodes?: string[];
  deniedCountryCodes?: string[];
  prefixSendLimit?: string;
  prefixLength?: number;
}

const countryCodes = (description: string) =>
  ({
    type: 'array',
    maxItems: 300,
    uniqueItems: true,
    items: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' },
    description,
  }) as const;

export const protectionBodySchema = {
  type: 'object',
  properties: {
    allowedCountryCodes: countryCodes('Country calling codes (e.g. "41"), or longer prefixes ("1876" for Jamaica within +1), PINs may go to; any other destination is refused. Empty or absent: everywhere.'),
    deniedCountryCodes: countryCodes('Country calling codes or longer prefixes PINs never go to; they win over allowedCountryCodes.'),
    prefixSendLimit: timeText(
      'A guard against SMS pumping: PINs sent to numbers sharing their first prefixLength digits, {attempts}/{timeLength}{timeUnit}, window at most 1 year. Absent: no guard.',
    ),
    prefixLength: { type: 'integer', minimum: 1, maximum: 15, description: 'Digits that make the prefix of prefixSendLimit; 6 when absent.' },
  },
} as const;

export const protectionSchema = {
  type: 'object',
  required: ['allowedCountryCodes', 'deniedCountryCodes', 'prefixLength'],
  additionalProperties: false,
  properties: {
    allowedCountryCodes: { type: 'array', items: wireString },
    deniedCountryCodes: { type: 'array', items: wireString },
    prefixSendLimit: wireString,
    prefixLength: wireInteger,
  },
} as const;
