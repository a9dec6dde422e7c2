import { formatInfobipTime } from '../../core/infobip-time.js';
import type { CallRecord } from '../../core/store/types.js';
import type { MachineEvent } from '../machine/step-output.js';
import { renderCall, renderCallLog } from './call-wire.js';

const CALL_STATE_EVENTS = new Set(['CALL_RECEIVED', 'CALL_STARTED', 'CALL_RINGING', 'CALL_PRE_ESTABLISHED', 'CALL_ESTABLISHED']);
const CALL_END_EVENTS = new Set(['CALL_FINISHED', 'CALL_FAILED']);

/**
 * A call event in the envelope Infobip's SDKs parse: `type` (their discriminator), the call and
 * its configuration, when it happened, and the type's properties. Call-state events carry the call
 * as it is after the step, end events its CallLog.
 */
export function renderCallEvent(event: MachineEvent, call: CallRecord, at: number, apiBaseUrl: string): Record<string, unknown> {
  let properties = event.properties;
  if (CALL_STATE_EVENTS.has(event.type)) properties = { call: renderCall(call, at), apiBaseUrl };
  else if (CALL_END_EVENTS.has(event.type)) properties = { callLog: renderCallLog(call, at) };
  const out: Record<string, unknown> = { type: event.type, callId: call.callId, callsConfigurationId: call.configurationId };
  if (call.platform !== undefined) out.platform = { ...call.platform };
  out.timestamp = formatInfobipTime(at);
  if (properties !== undefined) out.properties = properties;
  return out;
}
