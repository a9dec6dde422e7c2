import type { CallEndpointType } from '../../core/store/types.js';
import { CALL_ENDPOINT_TYPES, MAX_ID_LENGTH, stringMapSchema, text, wireString, wireStringMap } from './common.js';

/**
 * A call's far end, discriminated by `type`. One object schema holds the fields of every type: the
 * reader checks which a type requires, naming the missing one (`endpoint.phoneNumber`), where a
 * `oneOf` would report every other type's failure too, and serialization needs no guessing.
 */

// UNCONFIRMED bounds: Infobip does not bound the endpoint fields; 255 characters for names and identities, 128 for ids.
const MAX_NAME_LENGTH = 255;

export interface EndpointBody {
  type: CallEndpointType;
  phoneNumber?: string;
  username?: string;
  sipTrunkId?: string;
  customHeaders?: Record<string, string>;
  identity?: string;
  displayName?: string;
  websocketEndpointConfigId?: string;
  identifier?: string;
}

export const endpointSchema = {
  type: 'object',
  description:
    'By `type`: PHONE, VIBER and WHATSAPP `{phoneNumber}`; SIP `{username, sipTrunkId, customHeaders?}`; ' +
    'WEBRTC `{identity, displayName?}`; WEBSOCKET `{websocketEndpointConfigId, identifier?}`.',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: [...CALL_ENDPOINT_TYPES] },
    phoneNumber: {
      type: 'string',
      description: 'PHONE, VIBER, WHATSAPP: number in E.164 format, 1 to 15 digits with an optional leading +.',
      example: '41793026727',
    },
    username: text(MAX_NAME_LENGTH, 1, 'SIP: username of the SIP endpoint.'),
    sipTrunkId: text(MAX_ID_LENGTH, 1, 'SIP: id of the SIP trunk.'),
    customHeaders: stringMapSchema('SIP: custom headers; only headers named X-… are passed on.'),
    identity: text(MAX_NAME_LENGTH, 1, 'WEBRTC: the identity of the WebRTC user.'),
    displayName: text(MAX_NAME_LENGTH, 0, 'WEBRTC: a human-readable name for the identity.'),
    websocketEndpointConfigId: text(MAX_ID_LENGTH, 1, 'WEBSOCKET: id of the websocket endpoint configuration.'),
    identifier: text(MAX_NAME_LENGTH, 0, 'WEBSOCKET: optional identifier of the websocket call.'),
  },
} as const;

export const wireEndpointSchema = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: [...CALL_ENDPOINT_TYPES] },
    phoneNumber: wireString,
    username: wireString,
    sipTrunkId: wireString,
    customHeaders: wireStringMap,
    identity: wireString,
    displayName: wireString,
    websocketEndpointConfigId: wireString,
    identifier: wireString,
  },
} as const;
