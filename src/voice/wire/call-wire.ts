import { formatInfobipTime } from '../../core/infobip-time.js';
import type { CallRecord } from '../../core/store/types.js';
import { callErrorById } from '../machine/call-errors.js';

/** A call's endpoint as the API shows it: the far end, `type` first. */
const endpointOf = (call: CallRecord): Record<string, unknown> => ({ ...call.endpoint });

const secondsBetween = (from: number | undefined, to: number | undefined): number | undefined =>
  from === undefined || to === undefined ? undefined : Math.max(0, Math.round((to - from) / 1000));

/** Fields shared by Call and CallLog. */
function common(call: CallRecord, now: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    endpoint: endpointOf(call),
    from: call.from,
    to: call.to,
    direction: call.direction,
    state: call.state,
    startTime: formatInfobipTime(call.startTime),
  };
  if (call.answerTime !== undefined) out.answerTime = formatInfobipTime(call.answerTime);
  if (call.endTime !== undefined) out.endTime = formatInfobipTime(call.endTime);
  if (call.parentCallId !== undefined) out.parentCallId = call.parentCallId;
  if (call.detection !== undefined) out.machineDetection = { ...call.detection };
  const ring = secondsBetween(call.ringTime, call.answerTime ?? call.endTime ?? now);
  if (ring !== undefined) out.ringDuration = ring;
  return out;
}

/** The Call object of the API and of call events. */
export function renderCall(call: CallRecord, now: number): Record<string, unknown> {
  const out: Record<string, unknown> = { id: call.callId, ...common(call, now) };
  out.media = { audio: { muted: false, userMuted: false, deaf: false }, video: { camera: false, screenShare: false, blind: false } };
  out.callsConfigurationId = call.configurationId;
  if (call.platform !== undefined) out.platform = { ...call.platform };
  if (call.customData !== undefined) out.customData = { ...call.customData };
  if (call.externalId !== undefined) out.externalId = call.externalId;
  return out;
}

/** The CallLog of the history and of CALL_FINISHED / CALL_FAILED. */
export function renderCallLog(call: CallRecord, now: number): Record<string, unknown> {
  const out: Record<string, unknown> = { callId: call.callId, ...common(call, now) };
  out.callsConfigurationIds = [call.configurationId];
  if (call.platform !== undefined) out.platform = { ...call.platform };
  out.conferenceIds = [];
  out.duration = secondsBetween(call.answerTime, call.endTime ?? now) ?? 0;
  out.hasCameraVideo = false;
  out.hasScreenshareVideo = false;
  const error = call.errorCode === undefined ? undefined : callErrorById(call.errorCode);
  if (error) out.errorCode = { id: error.id, name: error.name, description: error.description };
  if (call.customData !== undefined) out.customData = { ...call.customData };
  if (call.hangupSource !== undefined) out.hangupSource = call.hangupSource;
  if (call.externalId !== undefined) out.externalId = call.externalId;
  return out;
}
