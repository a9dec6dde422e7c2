import { MAX_WEBHOOK_URL_LENGTH } from '../../core/webhook-url.js';
import { MAX_ID_LENGTH, text } from './common.js';
import { CALL_LANGUAGES, type CallLanguage } from './languages.js';

/**
 * What say, play and a DTMF capture's prompt are made of: speech (text, language, rate, voice),
 * play content by `type`, loop count and the DTMF keys that stop playback.
 */

export const PLAY_CONTENT_TYPES = ['FILE', 'URL', 'RECORDING', 'TEXT', 'TTY'] as const;
export const VOICE_GENDERS = ['FEMALE', 'MALE'] as const;

export type PlayContentType = (typeof PLAY_CONTENT_TYPES)[number];
export type VoiceGender = (typeof VOICE_GENDERS)[number];

// UNCONFIRMED bound: Infobip does not bound the text to speak; 4000 characters leave room for SSML markup.
export const MAX_SPEECH_TEXT_LENGTH = 4000;
// UNCONFIRMED bound: Infobip does not bound loopCount; 100 repeats.
export const MAX_LOOP_COUNT = 100;
// UNCONFIRMED bound: play's timeout and offset are at most 8 hours, the longest a call lasts.
export const MAX_PLAY_MS = 28_800_000;
// UNCONFIRMED: Infobip's voiceName is an enum of 974 cloud voices; any non-blank name of ≤128 characters is accepted, the speech side picks the voice.
export const MAX_VOICE_NAME_LENGTH = 128;
// UNCONFIRMED bound: a terminator lists distinct keys, and a keypad has 16.
export const MAX_TERMINATOR_LENGTH = 16;

export interface SpeechPreferencesBody {
  voiceGender?: VoiceGender;
  voiceName?: string;
}

/** The speech fields of `say` and of TEXT content. */
export interface SpeechBody {
  text: string;
  language: CallLanguage;
  speechRate?: number;
  preferences?: SpeechPreferencesBody;
}

export interface StopOnBody {
  type: 'DTMF';
  terminator?: string;
}

/** Play content, all types in one shape: which fields a type needs is checked by the reader. */
export interface PlayContentBody {
  type: PlayContentType;
  fileId?: string;
  fileUrl?: string;
  text?: string;
  language?: CallLanguage;
  speechRate?: number;
  preferences?: SpeechPreferencesBody;
}

export const speechTextSchema = text(MAX_SPEECH_TEXT_LENGTH, 1, 'Text to read; SSML may fine-tune it. Must not be blank.');
export const languageSchema = { type: 'string', enum: [...CALL_LANGUAGES], description: 'Language of the text.', example: 'en' } as const;
export const speechRateSchema = { type: 'number', minimum: 0.5, maximum: 2, default: 1, description: 'Speech rate, 0.5 to 2.0.' } as const;

export const speechPreferencesSchema = {
  type: 'object',
  properties: {
    voiceGender: { type: 'string', enum: [...VOICE_GENDERS] },
    voiceName: text(MAX_VOICE_NAME_LENGTH, 1, 'Voice to synthesize the text with, e.g. Joanna. Any name is accepted; the closest voice available is used.'),
  },
} as const;

export const loopCountSchema = (what: string) =>
  ({ type: 'integer', minimum: 1, maximum: MAX_LOOP_COUNT, default: 1, description: `Times to ${what}: 1 to ${MAX_LOOP_COUNT}.` }) as const;

export const stopOnSchema = {
  type: 'object',
  description: 'Stop playback when the far end presses a key.',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['DTMF'] },
    terminator: {
      type: 'string',
      maxLength: MAX_TERMINATOR_LENGTH,
      pattern: '^[0-9*#A-D]*$',
      description: 'Keys that stop playback, e.g. "123" for any of 1, 2 and 3 (0-9, *, #, A-D); any key when absent or empty.',
    },
  },
} as const;

export const playContentSchema = {
  type: 'object',
  description:
    'By `type`: FILE `{fileId}` (an uploaded file), URL `{fileUrl}` (an http(s) URL of a WAV or MP3 file), TEXT `{text, language, speechRate?, preferences?}`. ' +
    'RECORDING and TTY are refused: Switchboard does not play them.',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: [...PLAY_CONTENT_TYPES] },
    fileId: text(MAX_ID_LENGTH, 1, 'FILE: id of an uploaded file.'),
    fileUrl: text(MAX_WEBHOOK_URL_LENGTH, 1, 'URL: absolute http(s) URL of a WAV or MP3 file.'),
    text: speechTextSchema,
    language: languageSchema,
    speechRate: speechRateSchema,
    preferences: speechPreferencesSchema,
  },
} as const;
