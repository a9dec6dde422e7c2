import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import type { CallInput } from '../machine/call-input.js';
import type { AnswerBody, HangupBody, PreAnswerBody, SendDtmfBody } from '../schemas/actions.js';
import { customDataField, readStringMap } from './field-checks.js';
import { readRecording } from './recording.js';

/**
 * Readers of the actions that move a call along (answer, pre-answer, hangup, send DTMF): a
 * schema-valid body becomes the machine's input, or a 400 listing every violation. Bodies that
 * Infobip makes optional may be undefined.
 */

type Input<Kind extends CallInput['kind']> = Extract<CallInput, { kind: Kind }>;

export function readAnswer(body: AnswerBody | undefined): Input<'answer'> {
  const violations: Violation[] = [];
  const customData = readStringMap(body?.customData, 'customData', violations);
  const recording = body?.recording === undefined ? undefined : readRecording(body.recording, 'recording', violations);
  if (violations.length > 0) throw badRequest(violations);
  const input: Input<'answer'> = { kind: 'answer', ...customDataField(customData) };
  if (recording !== undefined) input.recording = recording;
  return input;
}

export function readPreAnswer(body: PreAnswerBody | undefined): Input<'pre-answer'> {
  const violations: Violation[] = [];
  const customData = readStringMap(body?.customData, 'customData', violations);
  if (violations.length > 0) throw badRequest(violations);
  return { kind: 'pre-answer', ringing: body?.ringing ?? false, ...customDataField(customData) };
}

/** Which codes fit the call's state is the machine's to decide; the schema has already checked the name. */
export function readHangup(body: HangupBody | undefined): Input<'hangup'> {
  return body?.errorCode === undefined ? { kind: 'hangup' } : { kind: 'hangup', errorCode: body.errorCode };
}

export function readSendDtmf(body: SendDtmfBody): Input<'send-dtmf'> {
  const violations: Violation[] = [];
  const customData = readStringMap(body.customData, 'customData', violations);
  if (violations.length > 0) throw badRequest(violations);
  return { kind: 'send-dtmf', dtmf: body.dtmf, ...customDataField(customData) };
}
