import type { CallDirection, CallEndpointType, CallState, HangupSource } from '../../core/store/types.js';
import { stringMapSchema, text, type StringMap } from '../../core/schema-fragments.js';
import { wireString } from '../../core/schema-fragments.js';

/**
 * Schema fragments every Calls endpoint group shares: enums, custom data, platform, recording,
 * paging, path ids and timestamps. Request schemas ignore unknown properties, as Infobip does;
 * response schemas list every field Infobip defines and no other, since serialization drops any key
 * they do not list (no store field can leak into an answer).
 */

export const CALL_ENDPOINT_TYPES = ['PHONE', 'SIP', 'WEBRTC', 'VIBER', 'WHATSAPP', 'WEBSOCKET'] as const satisfies readonly CallEndpointType[];
export const CALL_STATES = [
  'CALLING',
  'RINGING',
  'PRE_ESTABLISHED',
  'ESTABLISHED',
  'FINISHED',
  'FAILED',
  'CANCELLED',
  'NO_ANSWER',
  'BUSY',
] as const satisfies readonly CallState[];
export const CALL_DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const satisfies readonly CallDirection[];
export const HANGUP_SOURCES = ['ENDPOINT', 'API', 'PLATFORM'] as const satisfies readonly HangupSource[];
export const RECORDING_TYPES = ['AUDIO', 'AUDIO_AND_VIDEO'] as const;
export const RECORDING_CHANNELS = ['MONO', 'STEREO'] as const;
export const ACTION_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;

/** Call, configuration and file ids: Infobip bounds call and configuration ids to 128 characters. */
export const MAX_ID_LENGTH = 128;
const INT32_MAX = 2147483647;

export { MAX_MAP_KEYS, MAX_MAP_KEY_LENGTH, MAX_MAP_VALUE_LENGTH, stringMapSchema, text, type StringMap } from '../../core/schema-fragments.js';

export const customDataSchema = stringMapSchema('Your key-value pairs, kept with the call and returned in its events.');

export interface PlatformBody {
  entityId?: string;
  applicationId?: string;
}

export const platformSchema = {
  type: 'object',
  properties: { entityId: text(255), applicationId: text(255) },
} as const;

export interface RecordingBody {
  recordingType: (typeof RECORDING_TYPES)[number];
  channels?: (typeof RECORDING_CHANNELS)[number];
  filePrefix?: string;
  customData?: StringMap;
}

export const recordingSchema = {
  type: 'object',
  required: ['recordingType'],
  properties: {
    recordingType: { type: 'string', enum: [...RECORDING_TYPES] },
    channels: {
      type: 'string',
      enum: [...RECORDING_CHANNELS],
      default: 'MONO',
      description: 'STEREO records the far end on the left channel and the platform on the right.',
    },
    // UNCONFIRMED: Infobip documents these bounds for answer's recording only; create-call's filePrefix names the same file and gets them too.
    filePrefix: { type: 'string', minLength: 1, maxLength: 214, pattern: '^[a-zA-Z0-9_\\-]*$', description: "Name of the recording's file." },
    customData: customDataSchema,
  },
} as const;

/** `page` and `size` of every Calls list: pages count from 0, 20 results a page unless asked. */
export interface PageQuery {
  page: number;
  size: number;
}

export const pageQueryProperties = {
  page: { type: 'integer', minimum: 0, maximum: INT32_MAX, default: 0, description: 'Page number, from 0.' },
  size: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Results per page: 1 to 100.' },
} as const;

export const pageQuerySchema = { type: 'object', properties: pageQueryProperties } as const;

/** A path parameter naming a call, configuration or file. */
export const idParamSchema = (description: string) => ({ ...text(MAX_ID_LENGTH, 1), description }) as const;

// Response fragments.

export { wireBoolean, wireInteger, wireString, wireStringMap } from '../../core/schema-fragments.js';
export const wireDateTime = { type: 'string', format: 'date-time', example: '2025-03-04T10:15:30.000+0000' } as const;

export const wirePlatformSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { entityId: wireString, applicationId: wireString },
} as const;

export const pagingSchema = {
  type: 'object',
  required: ['page', 'size', 'totalPages', 'totalResults'],
  additionalProperties: false,
  properties: {
    page: { type: 'integer', description: 'The page returned, from 0.' },
    size: { type: 'integer', description: 'The page size asked for.' },
    totalPages: { type: 'integer', description: 'Pages of results matching the request.' },
    totalResults: { type: 'integer', description: 'Results matching the request.' },
  },
} as const;

/** `{results, paging}`: one page of a Calls list. */
export const pageOf = <Item extends object>(item: Item) =>
  ({
    type: 'object',
    required: ['results', 'paging'],
    additionalProperties: false,
    properties: { results: { type: 'array', items: item }, paging: pagingSchema },
  }) as const;
