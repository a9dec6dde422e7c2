import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import type { CallEndpointType, CallPlatform, MachineDetectionRequest, NewCall } from '../../core/store/types.js';
import { ANONYMOUS_CALLER, type CreateCallBody, type MachineDetectionBody } from '../schemas/calls.js';
import { PHONE_NUMBER_ENDPOINTS, readEndpoint } from './endpoint.js';
import { nonEmpty, readPhoneNumber, readStringMap } from './field-checks.js';
import { readRecording } from './recording.js';

/** What `POST /calls/1/calls` asks for; the route adds ids, times, direction, state, network and node. */
export type CallRequest = Pick<
  NewCall,
  | 'configurationId'
  | 'endpoint'
  | 'from'
  | 'to'
  | 'fromDisplayName'
  | 'connectTimeoutMs'
  | 'maxDurationMs'
  | 'customData'
  | 'externalId'
  | 'parentCallId'
  | 'platform'
  | 'machineDetection'
  | 'recording'
>;

/** The server's defaults for what a request leaves out. */
export interface CallDefaults {
  connectTimeoutMs: number;
  maxDurationMs: number;
}

/**
 * Turns a schema-valid `POST /calls/1/calls` body into the call to create, running the checks the
 * schema cannot express. Throws a 400 listing every violation found.
 */
export function readCreateCall(body: CreateCallBody, defaults: CallDefaults): CallRequest {
  const violations: Violation[] = [];
  const far = readEndpoint(body.endpoint, violations);
  const from = readCaller(body.from, body.endpoint.type, violations);
  const customData = readStringMap(body.customData, 'customData', violations);
  const recording = body.recording === undefined ? undefined : readRecording(body.recording, 'recording', violations);
  const machineDetection = body.machineDetection === undefined ? undefined : readMachineDetection(body.machineDetection, violations);
  if (violations.length > 0 || far === undefined || from === undefined) throw badRequest(violations);

  const call: CallRequest = {
    configurationId: body.callsConfigurationId,
    endpoint: far.endpoint,
    from,
    to: far.to,
    connectTimeoutMs: body.connectTimeout === undefined ? defaults.connectTimeoutMs : body.connectTimeout * 1000,
    maxDurationMs: body.maxDuration === undefined ? defaults.maxDurationMs : body.maxDuration * 1000,
  };
  if (body.fromDisplayName !== undefined) call.fromDisplayName = body.fromDisplayName;
  if (customData !== undefined) call.customData = customData;
  // An empty externalId or parentCallId names nothing: it counts as not given.
  const externalId = nonEmpty(body.externalId);
  if (externalId !== undefined) call.externalId = externalId;
  const parentCallId = nonEmpty(body.parentCallId);
  if (parentCallId !== undefined) call.parentCallId = parentCallId;
  if (body.platform !== undefined) call.platform = readPlatform(body.platform);
  if (machineDetection !== undefined) call.machineDetection = machineDetection;
  if (recording !== undefined) call.recording = recording;
  return call;
}

/** `from`: an E.164 number (stored without `+`) towards phone-number endpoints, mandatory for VIBER; any text otherwise. */
function readCaller(from: string | undefined, type: CallEndpointType, out: Violation[]): string | undefined {
  // UNCONFIRMED: Infobip asks E.164 of PHONE callers and "a Viber Voice number" of VIBER ones; WHATSAPP callers are numbers too.
  if (from === undefined) {
    if (type !== 'VIBER') return ANONYMOUS_CALLER;
    out.push({ property: 'from', violation: 'must not be null for VIBER endpoints' });
    return undefined;
  }
  return PHONE_NUMBER_ENDPOINTS.has(type) ? readPhoneNumber(from, 'from', out) : from;
}

/** detectionTime must end before the end-of-message detection it precedes, when there is one (timeout above 0). */
function readMachineDetection(body: MachineDetectionBody, out: Violation[]): MachineDetectionRequest | undefined {
  const { enabled, messageDetectionTimeout, detectionTime } = body;
  if (detectionTime !== undefined && messageDetectionTimeout !== undefined && messageDetectionTimeout > 0 && detectionTime >= messageDetectionTimeout) {
    out.push({ property: 'machineDetection.detectionTime', violation: `must be less than messageDetectionTimeout (${messageDetectionTimeout})` });
    return undefined;
  }
  const request: MachineDetectionRequest = { enabled };
  if (messageDetectionTimeout !== undefined) request.messageDetectionTimeout = messageDetectionTimeout;
  if (detectionTime !== undefined) request.detectionTime = detectionTime;
  return request;
}

function readPlatform(body: NonNullable<CreateCallBody['platform']>): CallPlatform {
  const platform: CallPlatform = {};
  if (body.entityId !== undefined) platform.entityId = body.entityId;
  if (body.applicationId !== undefined) platform.applicationId = body.applicationId;
  return platform;
}
