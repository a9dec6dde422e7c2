import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import type { MediaSource } from '../../core/store/types.js';
import type { CallInput, NewDtmfCapture, NewMediaAction } from '../machine/call-input.js';
import type { CaptureDtmfBody, PlayBody, SayBody, StopPlayBody } from '../schemas/actions.js';
import type { StringMap } from '../schemas/common.js';
import type { StopOnBody } from '../schemas/media.js';
import { customDataField, readStringMap } from './field-checks.js';
import { readPlayContent, readSpeech, readStopOn } from './media.js';

/**
 * Readers of the media actions (say, play, stop-play, capture DTMF): a schema-valid body becomes
 * the machine's input, or a 400 listing every violation. Request customData both updates the
 * call's and comes back in the action's finished event.
 */

type Input<Kind extends CallInput['kind']> = Extract<CallInput, { kind: Kind }>;
/** say and play share one input variant. */
type MediaInput<Kind extends 'say' | 'play'> = Extract<CallInput, { kind: 'say' | 'play' }> & { kind: Kind };

export function readSay(body: SayBody): MediaInput<'say'> {
  const violations: Violation[] = [];
  const source = readSpeech(body, '', violations);
  const customData = readStringMap(body.customData, 'customData', violations);
  if (source === undefined || violations.length > 0) throw badRequest(violations);
  return { kind: 'say', action: mediaAction('SAY', source, body, customData), ...customDataField(customData) };
}

export function readPlay(body: PlayBody): MediaInput<'play'> {
  const violations: Violation[] = [];
  const source = readPlayContent(body.content, 'content', violations);
  const customData = readStringMap(body.customData, 'customData', violations);
  if (source === undefined || violations.length > 0) throw badRequest(violations);
  const action = mediaAction('PLAY', source, body, customData);
  if (body.timeout !== undefined) action.timeoutMs = body.timeout;
  if (body.offset !== undefined) action.offsetMs = body.offset;
  return { kind: 'play', action, ...customDataField(customData) };
}

export function readStopPlay(body: StopPlayBody | undefined): Input<'stop-play'> {
  const violations: Violation[] = [];
  const customData = readStringMap(body?.customData, 'customData', violations);
  if (violations.length > 0) throw badRequest(violations);
  return { kind: 'stop-play', ...customDataField(customData) };
}

/** A capture waits `timeout` for the first digit and `digitTimeout` (else `timeout`) for each next one; its prompt plays once. */
export function readCaptureDtmf(body: CaptureDtmfBody): Input<'capture-dtmf'> {
  const violations: Violation[] = [];
  const promptSource = body.playContent === undefined ? undefined : readPlayContent(body.playContent, 'playContent', violations);
  const customData = readStringMap(body.customData, 'customData', violations);
  if (violations.length > 0) throw badRequest(violations);
  const capture: NewDtmfCapture = { maxLength: body.maxLength, timeoutMs: body.timeout, digitTimeoutMs: body.digitTimeout ?? body.timeout };
  if (body.terminator !== undefined) capture.terminator = body.terminator;
  if (customData !== undefined) capture.customData = customData;
  const input: Input<'capture-dtmf'> = { kind: 'capture-dtmf', capture, ...customDataField(customData) };
  if (promptSource !== undefined) input.prompt = { type: 'PLAY', source: promptSource, loopCount: 1 };
  return input;
}

function mediaAction(
  type: NewMediaAction['type'],
  source: MediaSource,
  body: { loopCount?: number; stopOn?: StopOnBody },
  customData: StringMap | undefined,
): NewMediaAction {
  const action: NewMediaAction = { type, source, loopCount: body.loopCount ?? 1 };
  const stopOn = readStopOn(body.stopOn);
  if (stopOn !== undefined) action.stopOn = stopOn;
  if (customData !== undefined) action.customData = customData;
  return action;
}
