import type { Violation } from '../../core/errors/api-problem.js';
import type { MediaAction, MediaSource } from '../../core/store/types.js';
import type { PlayContentBody, SpeechBody, StopOnBody } from '../schemas/media.js';
import { propertyPath, readAudioUrl, readNonBlank } from './field-checks.js';

type SpeechSource = Extract<MediaSource, { kind: 'speech' }>;

/** Speech to synthesize (say, TEXT content) at `prefix`: text not blank, speech rate 1 unless given. */
export function readSpeech(body: SpeechBody, prefix: string, out: Violation[]): SpeechSource | undefined {
  const failuresBefore = out.length;
  readNonBlank(body.text, propertyPath(prefix, 'text'), out);
  const preferences = body.preferences;
  if (preferences?.voiceName !== undefined) readNonBlank(preferences.voiceName, propertyPath(prefix, 'preferences.voiceName'), out);
  if (out.length > failuresBefore) return undefined;
  const source: SpeechSource = { kind: 'speech', text: body.text, language: body.language, speechRate: body.speechRate ?? 1 };
  if (preferences?.voiceGender !== undefined) source.voiceGender = preferences.voiceGender;
  if (preferences?.voiceName !== undefined) source.voiceName = preferences.voiceName;
  return source;
}

/** Play content at `prefix` (`content`, `playContent`): the fields its type needs; RECORDING and TTY are refused. */
export function readPlayContent(content: PlayContentBody, prefix: string, out: Violation[]): MediaSource | undefined {
  const missing = (field: string): undefined => {
    out.push({ property: propertyPath(prefix, field), violation: 'must not be null' });
    return undefined;
  };
  switch (content.type) {
    case 'FILE':
      return content.fileId === undefined ? missing('fileId') : { kind: 'file', fileId: content.fileId };
    case 'URL': {
      if (content.fileUrl === undefined) return missing('fileUrl');
      const url = readAudioUrl(content.fileUrl, propertyPath(prefix, 'fileUrl'), out);
      return url === undefined ? undefined : { kind: 'url', url };
    }
    case 'TEXT': {
      if (content.text === undefined) missing('text');
      if (content.language === undefined) missing('language');
      if (content.text === undefined || content.language === undefined) return undefined;
      const speech: SpeechBody = { text: content.text, language: content.language };
      if (content.speechRate !== undefined) speech.speechRate = content.speechRate;
      if (content.preferences !== undefined) speech.preferences = content.preferences;
      return readSpeech(speech, prefix, out);
    }
    // Documented by Infobip, but Switchboard has no call recordings to play and no TTY (Baudot) tones.
    case 'RECORDING':
    case 'TTY':
      out.push({ property: propertyPath(prefix, 'type'), violation: `${content.type} content is not supported; use FILE, URL or TEXT` });
      return undefined;
    default:
      out.push({ property: propertyPath(prefix, 'type'), violation: 'must be one of [FILE, URL, RECORDING, TEXT, TTY]' });
      return undefined;
  }
}

/** `stopOn`: the keys that stop playback; no terminator means any key. */
export function readStopOn(body: StopOnBody | undefined): MediaAction['stopOn'] {
  if (body === undefined) return undefined;
  // UNCONFIRMED: an empty terminator sets no keys, so, as Infobip says of an absent one, any key stops playback.
  return body.terminator === undefined || body.terminator === '' ? {} : { terminator: body.terminator };
}
