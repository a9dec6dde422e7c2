import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { MediaAction, MediaSource, Store } from '../core/store/types.js';
import { MediaUnavailable, type MediaPreparer } from './call-engine.js';
import { audioMs, type Audio } from './media/audio.js';
import { AudioDecodeError } from './media/codecs/audio-decode-error.js';
import { decodeAudio } from './media/codecs/decode-audio.js';
import { AudioFetchError, fetchAudio } from './media/fetch-audio.js';
import { SpeechRequestError, speechCacheKey, type SpeechRequest } from './media/speech/speech-request.js';
import type { SpeechSynthesizer } from './media/speech/speech-synthesizer.js';

export interface CallMediaDeps {
  store: Store;
  clock: Clock;
  speech: SpeechSynthesizer;
  /** Largest audio file a play URL may serve (default 10 MB). */
  maxUrlBytes?: number;
  urlTimeoutMs?: number;
  /** How long fetched audio is kept, so that a call's recording can still be rendered. */
  keepUrlAudioMs: number;
}

export const speechRequestOf = (source: Extract<MediaSource, { kind: 'speech' }>): SpeechRequest => ({
  text: source.text,
  language: source.language,
  speechRate: source.speechRate,
  ...(source.voiceGender === undefined ? {} : { voiceGender: source.voiceGender }),
});

/**
 * Audio for calls, on the engine side: prepares what an action plays (synthesized speech, an
 * uploaded file, audio fetched from a URL, which is kept by content so any node can render it
 * again) and finds it again by the reference the action stored.
 */
export class CallMedia implements MediaPreparer {
  constructor(private readonly deps: CallMediaDeps) {}

  async prepare(accountId: string, action: MediaAction): Promise<{ audioMs: number; audioRef: string }> {
    const source = action.source;
    if (source.kind === 'speech') {
      const request = speechRequestOf(source);
      try {
        const audio = await this.deps.speech.synthesize(request);
        return { audioMs: audioMs(audio), audioRef: `speech:${speechCacheKey(request)}` };
      } catch (error) {
        if (error instanceof SpeechRequestError) throw new MediaUnavailable(error.message);
        throw error;
      }
    }
    if (source.kind === 'file') {
      const file = await this.deps.store.audio.describe(accountId, source.fileId);
      if (!file) throw new MediaUnavailable(`file ${source.fileId} not found`);
      return { audioMs: file.durationMs, audioRef: `audio:${file.id}` };
    }
    return this.fetched(accountId, source.url);
  }

  /** The audio a stored reference names, or undefined when it is gone. */
  async audioOf(accountId: string, audioRef: string, speech?: SpeechRequest): Promise<Audio | undefined> {
    if (audioRef.startsWith('speech:')) return speech ? this.deps.speech.synthesize(speech) : undefined;
    const stored = await this.deps.store.audio.get(accountId, audioRef.slice('audio:'.length));
    if (!stored) return undefined;
    return (await decodeAudio(stored.bytes)).audio;
  }

  private async fetched(accountId: string, url: string): Promise<{ audioMs: number; audioRef: string }> {
    const { store, clock } = this.deps;
    try {
      const bytes = await fetchAudio(url, { maxBytes: this.deps.maxUrlBytes ?? 10 * 1024 * 1024, timeoutMs: this.deps.urlTimeoutMs ?? 10_000 });
      const { format, audio } = await decodeAudio(bytes);
      const id = `url-${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`;
      const now = clock.now();
      const durationMs = audioMs(audio);
      await store.audio.put(
        { accountId, id, origin: 'url', name: url.slice(0, 2048), format, size: bytes.byteLength, durationMs, createdAt: now, expiresAt: now + this.deps.keepUrlAudioMs },
        bytes,
      );
      return { audioMs: durationMs, audioRef: `audio:${id}` };
    } catch (error) {
      if (error instanceof AudioFetchError || error instanceof AudioDecodeError) throw new MediaUnavailable(error.message);
      throw error;
    }
  }
}
