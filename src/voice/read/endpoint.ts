import type { Violation } from '../../core/errors/api-problem.js';
import type { CallEndpoint, CallEndpointType } from '../../core/store/types.js';
import { CALL_ENDPOINT_TYPES } from '../schemas/common.js';
import type { EndpointBody } from '../schemas/endpoint.js';
import { readPhoneNumber, readStringMap } from './field-checks.js';

/** Endpoint types addressed by a phone number, whose caller id is a phone number too. */
export const PHONE_NUMBER_ENDPOINTS: ReadonlySet<CallEndpointType> = new Set(['PHONE', 'VIBER', 'WHATSAPP']);

const REQUIRED_FIELDS: Record<CallEndpointType, ReadonlyArray<keyof EndpointBody>> = {
  PHONE: ['phoneNumber'],
  VIBER: ['phoneNumber'],
  WHATSAPP: ['phoneNumber'],
  SIP: ['username', 'sipTrunkId'],
  WEBRTC: ['identity'],
  WEBSOCKET: ['websocketEndpointConfigId'],
};

export interface ReadEndpoint {
  /** The documented fields of its type, as given. */
  endpoint: CallEndpoint;
  /** The far end's address: a phone number without `+`, a SIP username, a WebRTC identity, a websocket configuration id. */
  to: string;
}

/** Reads `endpoint`: the fields its `type` requires are present and well formed; other types' fields are dropped. */
export function readEndpoint(body: EndpointBody, out: Violation[]): ReadEndpoint | undefined {
  const required = Object.hasOwn(REQUIRED_FIELDS, body.type) ? REQUIRED_FIELDS[body.type] : undefined;
  if (required === undefined) {
    out.push({ property: 'endpoint.type', violation: `must be one of [${CALL_ENDPOINT_TYPES.join(', ')}]` });
    return undefined;
  }
  const missing = required.filter((field) => typeof body[field] !== 'string');
  for (const field of missing) out.push({ property: `endpoint.${field}`, violation: 'must not be null' });
  if (missing.length > 0) return undefined;

  switch (body.type) {
    case 'PHONE':
    case 'VIBER':
    case 'WHATSAPP': {
      const to = readPhoneNumber(body.phoneNumber!, 'endpoint.phoneNumber', out);
      return to === undefined ? undefined : { endpoint: { type: body.type, phoneNumber: body.phoneNumber }, to };
    }
    case 'SIP': {
      const endpoint: CallEndpoint = { type: 'SIP', username: body.username, sipTrunkId: body.sipTrunkId };
      if (body.customHeaders !== undefined) {
        const headers = readStringMap(body.customHeaders, 'endpoint.customHeaders', out);
        if (headers === undefined) return undefined;
        endpoint.customHeaders = headers;
      }
      return { endpoint, to: body.username! };
    }
    case 'WEBRTC': {
      const endpoint: CallEndpoint = { type: 'WEBRTC', identity: body.identity };
      if (body.displayName !== undefined) endpoint.displayName = body.displayName;
      return { endpoint, to: body.identity! };
    }
    case 'WEBSOCKET': {
      const endpoint: CallEndpoint = { type: 'WEBSOCKET', websocketEndpointConfigId: body.websocketEndpointConfigId };
      if (body.identifier !== undefined) endpoint.identifier = body.identifier;
      // UNCONFIRMED: a websocket call's `to` is its endpoint configuration id; `identifier` is an optional label.
      return { endpoint, to: body.websocketEndpointConfigId! };
    }
  }
}
