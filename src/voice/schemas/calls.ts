import type { CallDirection, CallEndpointType, CallState } from '../../core/store/types.js';
import {
  CALL_DIRECTIONS,
  CALL_ENDPOINT_TYPES,
  CALL_STATES,
  customDataSchema,
  idParamSchema,
  MAX_ID_LENGTH,
  pageQueryProperties,
  platformSchema,
  recordingSchema,
  text,
  type PageQuery,
  type PlatformBody,
  type RecordingBody,
  type StringMap,
} from './common.js';
import { endpointSchema, type EndpointBody } from './endpoint.js';

/** `POST /calls/1/calls`, the two call lists' query and the `{callId}` path parameter. */

// UNCONFIRMED bound: Infobip documents no minimum connectTimeout; a call rings at least 1 s.
export const MIN_CONNECT_TIMEOUT_S = 1;
export const MAX_CONNECT_TIMEOUT_S = 60;
// UNCONFIRMED bound: Infobip's default maxDuration, 28800 s (8 hours), is also the longest allowed.
export const MAX_CALL_DURATION_S = 28_800;
// UNCONFIRMED bound: Infobip does not bound from, fromDisplayName or externalId; 255 characters.
const MAX_CALLER_LENGTH = 255;
// UNCONFIRMED: a call created without `from` (allowed for every endpoint but VIBER) presents the caller as "anonymous", SIP's withheld caller id.
export const ANONYMOUS_CALLER = 'anonymous';

export interface MachineDetectionBody {
  enabled: boolean;
  messageDetectionTimeout?: number;
  detectionTime?: number;
}

export interface CreateCallBody {
  endpoint: EndpointBody;
  callsConfigurationId: string;
  from?: string;
  fromDisplayName?: string;
  connectTimeout?: number;
  maxDuration?: number;
  recording?: RecordingBody;
  machineDetection?: MachineDetectionBody;
  customData?: StringMap;
  platform?: PlatformBody;
  parentCallId?: string;
  externalId?: string;
}

export const createCallBodySchema = {
  type: 'object',
  required: ['endpoint', 'callsConfigurationId'],
  properties: {
    endpoint: endpointSchema,
    callsConfigurationId: text(MAX_ID_LENGTH, 1, 'The calls configuration whose subscriptions receive the call events.'),
    from: text(
      MAX_CALLER_LENGTH,
      1,
      'Caller id: an E.164 number for PHONE, VIBER and WHATSAPP endpoints (mandatory for VIBER), any string for SIP, WEBRTC and WEBSOCKET. ' +
        `When absent: "${ANONYMOUS_CALLER}".`,
    ),
    fromDisplayName: text(MAX_CALLER_LENGTH, 0, 'Name shown to WEBRTC callees.'),
    connectTimeout: {
      type: 'integer',
      minimum: MIN_CONNECT_TIMEOUT_S,
      maximum: MAX_CONNECT_TIMEOUT_S,
      description: `Seconds to wait for an answer: ${MIN_CONNECT_TIMEOUT_S} to ${MAX_CONNECT_TIMEOUT_S}.`,
    },
    maxDuration: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CALL_DURATION_S,
      description: `Longest the call may last once answered, in seconds: 1 to ${MAX_CALL_DURATION_S}; it then ends with MAX_DURATION_REACHED.`,
    },
    recording: recordingSchema,
    machineDetection: {
      type: 'object',
      required: ['enabled'],
      properties: {
        enabled: { type: 'boolean', description: 'Detect whether a human or a machine answers.' },
        messageDetectionTimeout: {
          type: 'integer',
          minimum: 0,
          maximum: 60,
          description: "Seconds to wait for the end of a machine's message; 0 detects no end of message.",
        },
        detectionTime: {
          type: 'number',
          minimum: 1,
          maximum: 5,
          description: 'Seconds to analyse the call before deciding: 1 to 5, 3.7 when absent; below messageDetectionTimeout when that is above 0.',
        },
      },
    },
    customData: customDataSchema,
    platform: platformSchema,
    parentCallId: text(MAX_ID_LENGTH, 0, 'Id of the call that started this one.'),
    externalId: text(MAX_CALLER_LENGTH, 0, 'Your id for the call, returned with it.'),
  },
} as const;

export interface CallsQuery extends PageQuery {
  type?: CallEndpointType;
  callsConfigurationId?: string;
  applicationId?: string;
  from?: string;
  to?: string;
  direction?: CallDirection;
  status?: CallState;
  startTimeAfter?: string;
  conferenceId?: string;
  dialogId?: string;
  bulkId?: string;
}

/** Query of `GET /calls/1/calls` (live calls) and `GET /calls/1/calls/history` (finished calls). */
export const callsQuerySchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: [...CALL_ENDPOINT_TYPES], description: 'Only calls to endpoints of this type.' },
    callsConfigurationId: text(MAX_ID_LENGTH, 0, 'Only calls of this calls configuration.'),
    applicationId: text(255, 0, 'Only calls with this platform application id.'),
    from: text(MAX_CALLER_LENGTH, 0, 'Only calls from this caller.'),
    to: text(MAX_CALLER_LENGTH, 0, 'Only calls to this callee (a phone number, SIP username, WebRTC identity…).'),
    direction: { type: 'string', enum: [...CALL_DIRECTIONS] },
    status: { type: 'string', enum: [...CALL_STATES], description: 'Only calls in this state.' },
    startTimeAfter: {
      type: 'string',
      maxLength: 64,
      description: "Only calls started after this instant, e.g. 2025-03-04T10:15:30.000+0000 (yyyy-MM-dd'T'HH:mm:ss.SSSZ).",
    },
    conferenceId: text(MAX_ID_LENGTH, 0, 'Switchboard has no conferences: when given, nothing matches.'),
    dialogId: text(MAX_ID_LENGTH, 0, 'Switchboard has no dialogs: when given, nothing matches.'),
    bulkId: text(MAX_ID_LENGTH, 0, 'Switchboard has no bulk calls: when given, nothing matches.'),
    ...pageQueryProperties,
  },
} as const;

export interface CallParams {
  callId: string;
}

export const callParamsSchema = {
  type: 'object',
  required: ['callId'],
  properties: { callId: idParamSchema('Id of the call.') },
} as const;
