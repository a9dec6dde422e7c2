import type { CallRecord, CallState, NewCall } from './types.js';

const FINAL_STATES: ReadonlySet<CallState> = new Set(['FINISHED', 'FAILED', 'CANCELLED', 'NO_ANSWER', 'BUSY']);

/** Whether a call in this state has ended: it never changes again. */
export const isFinalCallState = (state: CallState): boolean => FINAL_STATES.has(state);

/**
 * The columns both drivers keep beside a call's JSON body: what the API filters on, what claims
 * and sweeps look for. The body is the record itself, without its pk.
 */
export function callColumns(call: NewCall | CallRecord) {
  const { pk: _pk, ...body } = call as CallRecord;
  return {
    accountId: call.accountId,
    callId: call.callId,
    configurationId: call.configurationId,
    applicationId: call.platform?.applicationId ?? null,
    direction: call.direction,
    endpointType: call.endpoint.type,
    from: call.from,
    to: call.to,
    state: call.state,
    live: !isFinalCallState(call.state),
    startTime: call.startTime,
    endTime: call.endTime ?? null,
    nodeId: call.nodeId,
    body: JSON.stringify(body),
    updatedAt: call.updatedAt,
  };
}
