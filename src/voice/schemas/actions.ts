import { HANGUP_ERROR_CODES, type HangupErrorName } from '../machine/call-errors.js';
import { ACTION_STATUSES, customDataSchema, recordingSchema, type RecordingBody, type StringMap } from './common.js';
import {
  languageSchema,
  loopCountSchema,
  MAX_PLAY_MS,
  playContentSchema,
  speechPreferencesSchema,
  speechRateSchema,
  speechTextSchema,
  stopOnSchema,
  type PlayContentBody,
  type SpeechBody,
  type StopOnBody,
} from './media.js';

/**
 * Bodies of the actions on a call (`POST /calls/1/calls/{callId}/…`) and their answer. Every action
 * but hangup answers `{status}`; hangup answers the Call.
 */

// UNCONFIRMED bound: Infobip does not bound a capture's waits (int32 ms); at most one hour.
export const MAX_CAPTURE_WAIT_MS = 3_600_000;
// UNCONFIRMED bounds: Infobip bounds neither the digits a capture takes nor the keys sent at once; 255 each.
export const MAX_CAPTURE_DIGITS = 255;
export const MAX_SENT_DTMF_LENGTH = 255;

interface WithCustomData {
  customData?: StringMap;
}

export interface SayBody extends SpeechBody, WithCustomData {
  loopCount?: number;
  stopOn?: StopOnBody;
}

export const sayBodySchema = {
  type: 'object',
  required: ['text', 'language'],
  properties: {
    text: speechTextSchema,
    language: languageSchema,
    speechRate: speechRateSchema,
    loopCount: loopCountSchema('read the text'),
    preferences: speechPreferencesSchema,
    stopOn: stopOnSchema,
    customData: customDataSchema,
  },
} as const;

export interface PlayBody extends WithCustomData {
  content: PlayContentBody;
  loopCount?: number;
  timeout?: number;
  offset?: number;
  stopOn?: StopOnBody;
}

export const playBodySchema = {
  type: 'object',
  required: ['content'],
  properties: {
    content: playContentSchema,
    loopCount: loopCountSchema('play the content'),
    timeout: { type: 'integer', minimum: 1, maximum: MAX_PLAY_MS, description: 'Milliseconds to play, all loops together; to the end when absent.' },
    offset: { type: 'integer', minimum: 0, maximum: MAX_PLAY_MS, description: 'Milliseconds into the audio to start from; 0 when absent.' },
    stopOn: stopOnSchema,
    customData: customDataSchema,
  },
} as const;

export type StopPlayBody = WithCustomData;

export const stopPlayBodySchema = { type: 'object', properties: { customData: customDataSchema } } as const;

export interface AnswerBody extends WithCustomData {
  recording?: RecordingBody;
}

/** Infobip requires a body here; `{}` answers without recording. */
export const answerBodySchema = {
  type: 'object',
  properties: { customData: customDataSchema, recording: recordingSchema },
} as const;

export interface PreAnswerBody extends WithCustomData {
  ringing?: boolean;
}

export const preAnswerBodySchema = {
  type: 'object',
  properties: {
    ringing: { type: 'boolean', default: false, description: 'Play a ringing tone once pre-answered.' },
    customData: customDataSchema,
  },
} as const;

export interface HangupBody {
  errorCode?: HangupErrorName;
}

export const hangupBodySchema = {
  type: 'object',
  properties: {
    errorCode: {
      type: 'string',
      enum: [...HANGUP_ERROR_CODES],
      description:
        'Why the call ends. NORMAL_HANGUP only for established calls, MACHINE_DETECTED only for established outbound calls, the others only before a call is established.',
    },
  },
} as const;

export interface CaptureDtmfBody extends WithCustomData {
  maxLength: number;
  timeout: number;
  terminator?: string;
  digitTimeout?: number;
  playContent?: PlayContentBody;
}

export const captureDtmfBodySchema = {
  type: 'object',
  required: ['maxLength', 'timeout'],
  properties: {
    maxLength: { type: 'integer', minimum: 1, maximum: MAX_CAPTURE_DIGITS, description: `Most digits to capture: 1 to ${MAX_CAPTURE_DIGITS}.` },
    timeout: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CAPTURE_WAIT_MS,
      description: 'Milliseconds to wait for the first digit (after the prompt, if any).',
    },
    terminator: { type: 'string', pattern: '^[0-9*#A-D]$', description: 'Key that ends the input before maxLength digits: one of 0-9, *, #, A-D.' },
    digitTimeout: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CAPTURE_WAIT_MS,
      description: 'Milliseconds to wait for each next digit; `timeout` when absent.',
    },
    playContent: { ...playContentSchema, description: `Prompt played before the wait starts. ${playContentSchema.description}` },
    customData: customDataSchema,
  },
} as const;

export interface SendDtmfBody extends WithCustomData {
  dtmf: string;
}

export const sendDtmfBodySchema = {
  type: 'object',
  required: ['dtmf'],
  properties: {
    dtmf: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_SENT_DTMF_LENGTH,
      pattern: '^[0-9*#A-Dw]*$',
      description: 'Keys to send: 0-9, *, #, A-D, and w for a half-second pause.',
      example: '123w#',
    },
    customData: customDataSchema,
  },
} as const;

export const actionResponseSchema = {
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: { status: { type: 'string', enum: [...ACTION_STATUSES] } },
} as const;
