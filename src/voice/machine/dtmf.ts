import type { DtmfCapture } from '../../core/store/types.js';
import type { NewDtmfCapture, NewMediaAction } from './call-input.js';
import { scriptKey } from './call-script.js';
import { enqueue, stopPlaying } from './media-queue.js';
import type { StepOutput } from './step-output.js';

export const CAPTURE_TIMEOUT = 'capture-timeout';

type PromptOutcome = NonNullable<DtmfCapture['promptResult']>;

function setCapture(o: StepOutput, capture: DtmfCapture | undefined): void {
  const { capture: _old, ...media } = o.call.media;
  o.update({ media: capture ? { ...media, capture } : media });
}

/**
 * Starts capturing digits. With a prompt, the wait for the first digit starts once the prompt has
 * played (or was cut short by a digit); without one, at once.
 */
export function startCapture(o: StepOutput, request: NewDtmfCapture, prompt: NewMediaAction | undefined): void {
  const id = o.call.media.nextId;
  const capture: DtmfCapture = { ...request, id, digits: '', startedAt: o.now };
  o.update({ media: { ...o.call.media, nextId: id + 1, capture } });
  if (prompt) enqueue(o, prompt, id);
  else o.timer(CAPTURE_TIMEOUT, request.timeoutMs, { captureId: id });
  o.note('CAPTURE_STARTED', { captureId: id, maxLength: request.maxLength, timeoutMs: request.timeoutMs });
}

/** A capture's prompt ended: the wait for the first digit begins, unless digits already came. */
export function promptEnded(o: StepOutput, captureId: number, outcome: PromptOutcome): void {
  const capture = o.call.media.capture;
  if (!capture || capture.id !== captureId) return;
  setCapture(o, { ...capture, promptResult: outcome });
  if (capture.digits === '') o.timer(CAPTURE_TIMEOUT, capture.timeoutMs, { captureId });
}

/**
 * A capture's prompt could not be prepared: the capture ends there (its ERROR event says
 * CAPTURE_DTMF), without a DTMF_CAPTURED, and the call goes on.
 */
export function captureFailed(o: StepOutput, captureId: number): void {
  const capture = o.call.media.capture;
  if (!capture || capture.id !== captureId) return;
  setCapture(o, undefined);
  o.cancel(CAPTURE_TIMEOUT);
  o.note('CAPTURE_ENDED', { captureId, dtmf: capture.digits, failed: true });
}

function complete(o: StepOutput, capture: DtmfCapture, timedOut: boolean): void {
  setCapture(o, undefined);
  o.cancel(CAPTURE_TIMEOUT);
  const properties: Record<string, unknown> = { dtmf: capture.digits, timeout: timedOut };
  if (capture.customData !== undefined) properties.customData = capture.customData;
  if (capture.promptResult) properties.playedContentProperties = capture.promptResult;
  o.note('CAPTURE_ENDED', { captureId: capture.id, dtmf: capture.digits, timeout: timedOut });
  o.emit('DTMF_CAPTURED', properties);
}

/** The capture's wait ran out: it ends with the digits so far. */
export function captureTimedOut(o: StepOutput, captureId: number): void {
  const capture = o.call.media.capture;
  if (capture && capture.id === captureId) complete(o, capture, true);
}

/**
 * Keys pressed at the far end, one by one: each stops a playing action that stops on it (reported
 * as capturedDtmf), cuts a capture's prompt short, and feeds a capture in progress.
 */
export function keysPressed(o: StepOutput, digits: string, scale: number): void {
  for (const digit of digits) {
    o.note('DTMF_RECEIVED', { digit });
    scriptKey(o, digit);
    const head = o.call.media.queue[0];
    const capture = o.call.media.capture;
    if (head?.state === 'playing') {
      const stopsOnIt = head.stopOn !== undefined && (head.stopOn.terminator === undefined || head.stopOn.terminator.includes(digit));
      const isPrompt = capture !== undefined && head.captureId === capture.id;
      if (stopsOnIt || isPrompt) {
        const stopped = stopPlaying(o, scale, isPrompt ? undefined : digit);
        if (stopped && isPrompt) promptEnded(o, capture.id, { duration: stopped.playedMs, playedCompletely: false });
        // A key that stops playback is not also a digit of the capture, unless it cut the capture's own prompt.
        if (!isPrompt) continue;
      }
    }
    const current = o.call.media.capture;
    if (!current) continue;
    if (current.terminator !== undefined && current.terminator.includes(digit)) {
      complete(o, current, false);
      continue;
    }
    const next: DtmfCapture = { ...current, digits: current.digits + digit, lastDigitAt: o.now };
    if (next.digits.length >= next.maxLength) {
      complete(o, next, false);
      continue;
    }
    setCapture(o, next);
    o.cancel(CAPTURE_TIMEOUT);
    o.timer(CAPTURE_TIMEOUT, next.digitTimeoutMs, { captureId: next.id });
  }
}
