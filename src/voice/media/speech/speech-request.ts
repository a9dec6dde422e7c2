import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { speechVoiceFor } from './languages.js';
import { engineText } from './speech-text.js';

/** What a say action (or a 2FA voice message) asks to hear. */
export interface SpeechRequest {
  /** Plain text, or SSML in a `<speak>` document. */
  text: string;
  /** One of SPEECH_LANGUAGES. */
  language: string;
  /** 0.5 to 2; 1 is the engine's normal rate. */
  speechRate: number;
  voiceGender?: 'FEMALE' | 'MALE';
  /**
   * One of Infobip's cloud voices. eSpeak has none of them: the name is accepted and ignored, and the
   * language and gender choose the voice. It is not part of the cache key for the same reason.
   */
  voiceName?: string;
}

/** A request the engine cannot speak; the message names what is wrong with it. */
export class SpeechRequestError extends Error {
  override name = 'SpeechRequestError';
}

/** Longest text accepted, in UTF-8 bytes: far above what the API allows, bounded for the engine's buffer. */
export const MAX_SPEECH_TEXT_BYTES = 16 * 1024;

/** eSpeak's normal rate, which speechRate scales. */
const NORMAL_WORDS_PER_MINUTE = 175;

/** eSpeak's female variants are shared by all languages; its voices themselves are male. */
const FEMALE_VARIANT = '+f3';

/** What the engine is asked to do: everything that decides the samples it produces. */
export interface SpeechJob {
  voice: string;
  wordsPerMinute: number;
  text: string;
}

export function speechJob(request: SpeechRequest): SpeechJob {
  const voice = speechVoiceFor(request.language);
  if (voice === undefined) throw new SpeechRequestError(`language ${JSON.stringify(request.language)} cannot be spoken`);
  const rate = request.speechRate;
  if (!Number.isFinite(rate) || rate < 0.5 || rate > 2) throw new SpeechRequestError('speechRate must be between 0.5 and 2');
  if (Buffer.byteLength(request.text, 'utf8') > MAX_SPEECH_TEXT_BYTES) throw new SpeechRequestError(`text is longer than ${MAX_SPEECH_TEXT_BYTES} bytes`);
  return {
    voice: request.voiceGender === 'FEMALE' ? voice + FEMALE_VARIANT : voice,
    wordsPerMinute: Math.round(NORMAL_WORDS_PER_MINUTE * rate),
    text: engineText(request.text),
  };
}

/** The engine build: its version is part of every key, since another build may speak differently. */
const ENGINE = `espeak-ng-emscripten@${(createRequire(import.meta.url)('@echogarden/espeak-ng-emscripten/package.json') as { version: string }).version}`;

export function speechJobKey(job: SpeechJob): string {
  return createHash('sha256').update(JSON.stringify([ENGINE, job.voice, job.wordsPerMinute, job.text])).digest('base64url').slice(0, 22);
}

/**
 * Names the audio a request gives: requests that sound the same (a regional code spoken by its base
 * language's voice, a voice name eSpeak ignores) share a key, and the same key always gives the same
 * samples. Throws SpeechRequestError for a request that cannot be spoken.
 */
export const speechCacheKey = (request: SpeechRequest): string => speechJobKey(speechJob(request));
