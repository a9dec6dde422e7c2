import {
  CALL_DIRECTIONS,
  CALL_STATES,
  HANGUP_SOURCES,
  pageOf,
  wireBoolean,
  wireDateTime,
  wireInteger,
  wirePlatformSchema,
  wireString,
  wireStringMap,
} from './common.js';
import { wireEndpointSchema } from './endpoint.js';

/**
 * Call (live calls, create, get, hangup) and CallLog (history) with every field Infobip defines.
 * Call has `id` and `callsConfigurationId`, CallLog has `callId` and `callsConfigurationIds`.
 */

const directionSchema = { type: 'string', enum: [...CALL_DIRECTIONS] } as const;
const stateSchema = { type: 'string', enum: [...CALL_STATES] } as const;

const machineDetectionResultSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    detectionResult: { type: 'string', enum: ['HUMAN', 'MACHINE'] },
    confidenceRating: {
      type: 'object',
      description: 'Confidence, 0 to 1, of each detection class (HUMAN, MACHINE, MUSIC, RINGING, NOISE, SILENCE, OTHER); the values need not add up to 1.',
      additionalProperties: { type: 'number' },
    },
    customData: wireStringMap,
  },
} as const;

const mediaStateSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    audio: {
      type: 'object',
      additionalProperties: false,
      properties: { muted: wireBoolean, userMuted: wireBoolean, deaf: wireBoolean },
    },
    video: {
      type: 'object',
      additionalProperties: false,
      properties: { camera: wireBoolean, screenShare: wireBoolean, blind: wireBoolean },
    },
  },
} as const;

/** The fields a Call and a CallLog share, in Infobip's order. */
const callCommonProperties = {
  endpoint: wireEndpointSchema,
  from: wireString,
  to: wireString,
  direction: directionSchema,
  state: stateSchema,
  startTime: wireDateTime,
  answerTime: wireDateTime,
  endTime: wireDateTime,
  parentCallId: wireString,
  machineDetection: machineDetectionResultSchema,
  ringDuration: { type: 'integer', description: 'Seconds the call rang.' },
  platform: wirePlatformSchema,
  customData: wireStringMap,
  dialogId: wireString,
  externalId: wireString,
} as const;

export const callSchema = {
  type: 'object',
  required: ['endpoint'],
  additionalProperties: false,
  properties: {
    id: wireString,
    ...callCommonProperties,
    media: mediaStateSchema,
    callsConfigurationId: wireString,
    conferenceId: wireString,
  },
} as const;

export const callLogSchema = {
  type: 'object',
  required: ['endpoint'],
  additionalProperties: false,
  properties: {
    callId: wireString,
    ...callCommonProperties,
    callsConfigurationIds: { type: 'array', items: wireString },
    conferenceIds: { type: 'array', items: wireString },
    duration: { type: 'integer', description: 'Seconds from answer to end.' },
    hasCameraVideo: wireBoolean,
    hasScreenshareVideo: wireBoolean,
    errorCode: {
      type: 'object',
      description: 'Why the call ended, e.g. {id: 10000, name: NORMAL_HANGUP, …}.',
      additionalProperties: false,
      properties: { id: wireInteger, name: wireString, description: wireString },
    },
    sender: wireString,
    hangupSource: { type: 'string', enum: [...HANGUP_SOURCES] },
  },
} as const;

export const callsPageSchema = pageOf(callSchema);
export const callLogsPageSchema = pageOf(callLogSchema);
