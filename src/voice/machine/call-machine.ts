import { violation } from '../../core/errors/api-problem.js';
import { isFinalCallState } from '../../core/store/call-record.js';
import type { CallRecord, CallState, CallTimer, HangupSource } from '../../core/store/types.js';
import type { NetworkEvent, Telephony, TelephonyCommand } from '../../network/telephony/telephony.js';
import { CALL_ERRORS, finalStateFor, type CallErrorName } from './call-errors.js';
import type { CallInput } from './call-input.js';
import { SCRIPT_END, scriptAnswered, scriptQuiet } from './call-script.js';
import { CAPTURE_TIMEOUT, captureFailed, captureTimedOut, keysPressed, promptEnded, startCapture } from './dtmf.js';
import { dropWaiting, enqueue, failPreparing, finishPlaying, markReady, MEDIA_END, MEDIA_PREPARE, playLength, stopPlaying } from './media-queue.js';
import { StepOutput } from './step-output.js';

export interface MachineContext {
  telephony: Telephony;
  /** Real milliseconds per millisecond of audio: the sandbox plays faster or slower with its latency. */
  mediaScale: number;
}

export const CONNECT_TIMEOUT = 'connect-timeout';
export const MAX_DURATION = 'max-duration';
export const NETWORK = 'network';
export const MACHINE_DETECTION = 'machine-detection';

const ANSWERED: ReadonlySet<CallState> = new Set(['ESTABLISHED']);
const MEDIA_STATES: ReadonlySet<CallState> = new Set(['ESTABLISHED', 'PRE_ESTABLISHED']);

/** A 400 naming the call: the action does not fit the state it is in. */
const notNow = (what: string, call: CallRecord, allowed: string): Error =>
  violation('callId', `cannot ${what} a call in state ${call.state}; it must be ${allowed}`);

function mergeCustomData(o: StepOutput, customData: Record<string, string> | undefined): void {
  if (customData !== undefined) o.update({ customData: { ...o.call.customData, ...customData } });
}

function planNetwork(o: StepOutput, ctx: MachineContext, command: TelephonyCommand): void {
  for (const scheduled of ctx.telephony.plan(o.call, command)) o.timer(NETWORK, scheduled.afterMs, { event: scheduled.event });
}

function changeState(o: StepOutput, state: CallState, event: string, changes: Partial<CallRecord> = {}): void {
  o.update({ state, ...changes });
  o.note('STATE', { state });
  o.emit(event);
}

/** Ends the call: a call that was talking ends FINISHED whatever cut it; others end in the reason's state. */
export function endCall(o: StepOutput, reason: CallErrorName, source: HangupSource): void {
  const talking = o.call.answerTime !== undefined;
  const state = talking && reason !== 'BUSY' ? 'FINISHED' : finalStateFor(reason);
  const { capture: _dropped, ...media } = o.call.media;
  o.update({ state, endTime: o.now, errorCode: CALL_ERRORS[reason].id, hangupSource: source, media: { ...media, queue: [] } });
  o.removeAllTimers = true;
  o.addTimers.length = 0;
  o.note('STATE', { state, errorCode: reason, hangupSource: source });
  o.emit(state === 'FINISHED' ? 'CALL_FINISHED' : 'CALL_FAILED');
}

function answer(o: StepOutput): void {
  changeState(o, 'ESTABLISHED', 'CALL_ESTABLISHED', { answerTime: o.now });
  o.cancel(CONNECT_TIMEOUT);
  o.timer(MAX_DURATION, o.call.maxDurationMs);
}

/** The API's hangup rules: NORMAL_HANGUP only when established, MACHINE_DETECTED only when established outbound, others only before. */
function hangupReason(call: CallRecord, requested: CallErrorName | undefined): CallErrorName {
  const established = ANSWERED.has(call.state);
  if (requested === undefined) return established ? 'NORMAL_HANGUP' : call.direction === 'INBOUND' ? 'REJECTED' : 'CANCELLED';
  if (requested === 'NORMAL_HANGUP' && !established) throw violation('errorCode', 'NORMAL_HANGUP is only for established calls');
  if (requested === 'MACHINE_DETECTED' && !(established && call.direction === 'OUTBOUND')) {
    throw violation('errorCode', 'MACHINE_DETECTED is only for established outbound calls');
  }
  if (requested !== 'NORMAL_HANGUP' && requested !== 'MACHINE_DETECTED' && established) {
    throw violation('errorCode', `${requested} is only for calls not yet established`);
  }
  return requested;
}

function onApi(o: StepOutput, input: CallInput, ctx: MachineContext): void {
  const call = o.call;
  if (isFinalCallState(call.state)) throw notNow(input.kind, call, 'live');
  const inboundUnanswered = call.direction === 'INBOUND' && !ANSWERED.has(call.state);
  switch (input.kind) {
    case 'answer':
      if (!inboundUnanswered) throw notNow('answer', call, 'an inbound call not yet answered');
      mergeCustomData(o, input.customData);
      if (input.recording) o.update({ recording: input.recording });
      answer(o);
      planNetwork(o, ctx, { type: 'answer' });
      return;
    case 'pre-answer':
      if (!inboundUnanswered || call.state === 'PRE_ESTABLISHED') throw notNow('pre-answer', call, 'an inbound call in CALLING or RINGING');
      mergeCustomData(o, input.customData);
      changeState(o, 'PRE_ESTABLISHED', 'CALL_PRE_ESTABLISHED');
      return;
    case 'send-ringing':
      if (call.direction !== 'INBOUND' || call.state !== 'CALLING') throw notNow('send ringing on', call, 'an inbound call in CALLING');
      changeState(o, 'RINGING', 'CALL_RINGING', { ringTime: o.now });
      return;
    case 'hangup':
      endCall(o, hangupReason(call, input.errorCode), 'API');
      planNetwork(o, ctx, { type: 'hangup' });
      return;
    default:
      break;
  }
  if (!MEDIA_STATES.has(call.state)) throw notNow(input.kind, call, 'ESTABLISHED or PRE_ESTABLISHED');
  switch (input.kind) {
    case 'say':
    case 'play':
      mergeCustomData(o, input.customData);
      enqueue(o, input.action);
      return;
    case 'stop-play': {
      mergeCustomData(o, input.customData);
      const stopped = stopPlaying(o, ctx.mediaScale);
      const capture = o.call.media.capture;
      if (stopped && capture && stopped.action.captureId === capture.id) promptEnded(o, capture.id, { duration: stopped.playedMs, playedCompletely: false });
      dropWaiting(o);
      return;
    }
    case 'capture-dtmf':
      if (o.call.media.capture) throw violation('callId', 'a DTMF capture is already in progress on this call');
      mergeCustomData(o, input.customData);
      startCapture(o, input.capture, input.prompt);
      return;
    case 'send-dtmf':
      mergeCustomData(o, input.customData);
      o.note('DTMF_SENT', { digits: input.dtmf });
      planNetwork(o, ctx, { type: 'send-dtmf', digits: input.dtmf });
      return;
    default:
      return;
  }
}

function onNetwork(o: StepOutput, event: NetworkEvent, ctx: MachineContext): void {
  const call = o.call;
  if (isFinalCallState(call.state)) return;
  const answered = call.answerTime !== undefined;
  switch (event.type) {
    case 'ringing':
      if (call.direction === 'OUTBOUND' && call.state === 'CALLING') changeState(o, 'RINGING', 'CALL_RINGING', { ringTime: o.now });
      return;
    case 'answered':
      if (call.direction !== 'OUTBOUND' || answered) return;
      answer(o);
      scriptAnswered(o);
      if (call.machineDetection?.enabled) {
        const seconds = call.machineDetection.detectionTime ?? 3.7;
        o.timer(MACHINE_DETECTION, seconds * 1000 * ctx.mediaScale, { machine: event.machine === true });
      }
      return;
    case 'busy':
      if (!answered) endCall(o, 'BUSY', 'ENDPOINT');
      return;
    case 'no-answer':
      if (!answered) endCall(o, 'NO_ANSWER', 'ENDPOINT');
      return;
    case 'unreachable':
      if (!answered) endCall(o, 'DESTINATION_UNAVAILABLE', 'ENDPOINT');
      return;
    case 'hangup':
      endCall(o, answered ? 'NORMAL_HANGUP' : call.direction === 'INBOUND' ? 'CANCELLED' : 'REJECTED', 'ENDPOINT');
      return;
    case 'dtmf':
      if (MEDIA_STATES.has(call.state)) keysPressed(o, event.digits, ctx.mediaScale);
      return;
  }
}

function onTimer(o: StepOutput, timer: CallTimer, ctx: MachineContext): void {
  const call = o.call;
  if (isFinalCallState(call.state)) return;
  const data = timer.data ?? {};
  switch (timer.kind) {
    case NETWORK:
      onNetwork(o, data.event as NetworkEvent, ctx);
      return;
    case CONNECT_TIMEOUT:
      // An outbound call nobody answered; an inbound one the application never answered, which the caller gives up.
      if (call.answerTime === undefined) endCall(o, call.direction === 'OUTBOUND' ? 'NO_ANSWER' : 'CANCELLED', call.direction === 'OUTBOUND' ? 'PLATFORM' : 'ENDPOINT');
      return;
    case MAX_DURATION:
      endCall(o, 'MAX_DURATION_REACHED', 'PLATFORM');
      return;
    case MACHINE_DETECTION: {
      const machine = data.machine === true;
      const detection = {
        detectionResult: machine ? ('MACHINE' as const) : ('HUMAN' as const),
        confidenceRating: machine ? { MACHINE: 0.97, HUMAN: 0.03 } : { HUMAN: 0.96, MACHINE: 0.04 },
      };
      o.update({ detection });
      o.note('MACHINE_DETECTION', { detectionResult: detection.detectionResult });
      o.emit('MACHINE_DETECTION_FINISHED', { ...detection, ...(call.customData ? { customData: call.customData } : {}) });
      return;
    }
    case MEDIA_END: {
      const finished = finishPlaying(o, Number(data.actionId), ctx.mediaScale);
      const capture = o.call.media.capture;
      if (finished && capture && finished.captureId === capture.id) promptEnded(o, capture.id, { duration: playLength(finished), playedCompletely: true });
      if (finished) scriptQuiet(o, ctx.mediaScale);
      return;
    }
    case SCRIPT_END:
      endCall(o, 'NORMAL_HANGUP', 'API');
      return;
    case CAPTURE_TIMEOUT:
      captureTimedOut(o, Number(data.captureId));
      return;
    default:
      return;
  }
}

/**
 * One step of a call's life: the call as stored and one input give the call's next state and what
 * comes of it (events, timers, timeline). Pure and synchronous: it runs inside the store's
 * transaction. An API input the call's state does not allow throws a 400; anything else that no
 * longer applies (a timer of a call that moved on, a late network event) changes nothing but
 * removes the timer that brought it.
 */
export function stepCall(call: CallRecord, input: CallInput, now: number, ctx: MachineContext): StepOutput | undefined {
  const o = new StepOutput(call, now);
  switch (input.kind) {
    case 'network':
      onNetwork(o, input.event, ctx);
      if (input.timerId !== undefined) o.removeTimerIds.push(input.timerId);
      break;
    case 'timer':
      onTimer(o, input.timer, ctx);
      o.removeTimerIds.push(input.timer.id);
      break;
    case 'media-ready':
      if (!isFinalCallState(call.state)) markReady(o, input.actionId, input.audioMs, input.audioRef, ctx.mediaScale);
      if (input.timerId !== undefined) o.removeTimerIds.push(input.timerId);
      break;
    case 'media-failed':
      if (!isFinalCallState(call.state)) {
        const failed = failPreparing(o, input.actionId, input.reason, ctx.mediaScale);
        const capture = o.call.media.capture;
        if (failed && capture && failed.captureId === capture.id) captureFailed(o, capture.id);
        if (failed) scriptQuiet(o, ctx.mediaScale);
      }
      if (input.timerId !== undefined) o.removeTimerIds.push(input.timerId);
      break;
    case 'platform-lost':
      if (!isFinalCallState(call.state)) endCall(o, 'SERVICE_UNAVAILABLE', 'PLATFORM');
      break;
    default:
      onApi(o, input, ctx);
  }
  const changed = o.call !== call || o.events.length > 0 || o.timeline.length > 0;
  const timersTouched = o.addTimers.length > 0 || o.removeTimerIds.length > 0 || o.removeTimerKinds.length > 0 || o.removeAllTimers;
  return changed || timersTouched ? o : undefined;
}

/** The first step of an outbound call: CALLING, CALL_STARTED, the connect timeout and the network's plan. */
export function dialStep(call: CallRecord, now: number, ctx: MachineContext): StepOutput {
  const o = new StepOutput(call, now);
  o.note('STATE', { state: call.state });
  o.emit('CALL_STARTED');
  o.timer(CONNECT_TIMEOUT, call.connectTimeoutMs);
  planNetwork(o, ctx, { type: 'dial' });
  return o;
}

/** The first step of an inbound call: CALL_RECEIVED, and the caller's patience as its connect timeout. */
export function receiveStep(call: CallRecord, now: number): StepOutput {
  const o = new StepOutput(call, now);
  o.note('STATE', { state: call.state });
  o.emit('CALL_RECEIVED');
  o.timer(CONNECT_TIMEOUT, call.connectTimeoutMs);
  return o;
}

export { MEDIA_PREPARE };
