import { LRUCache } from 'lru-cache';
import { audioMs, type Audio } from '../audio.js';
import { OnDemandWorker } from '../worker/on-demand-worker.js';
import type { SpeechWorkReply, SpeechWorkRequest } from './speech-protocol.js';
import { SpeechRequestError, speechJob, speechJobKey, type SpeechJob, type SpeechRequest } from './speech-request.js';

export interface SpeechSynthesizerOptions {
  /** Bytes of samples the cache keeps; least recently used speech goes first. 64 MB by default. */
  cacheBytes?: number;
  /** The longest speech one request may produce; SSML breaks could otherwise ask for hours of silence. 30 min by default. */
  maxSpeechSeconds?: number;
}

export interface SpeechStats {
  /** Syntheses the engine ran. */
  synthesized: number;
  /** Requests answered without a synthesis of their own: from the cache, or by joining one under way. */
  cacheHits: number;
  /** Milliseconds of audio the engine produced. */
  audioMs: number;
  /** CPU milliseconds the engine spent producing it. */
  cpuMs: number;
}

/**
 * Text to speech for calls. The engine runs in a worker thread of its own, started on the first
 * request, so speaking never blocks the caller's thread and a server that never speaks pays nothing.
 * Speech is cached by its key: identical requests are synthesized once, and requests arriving while
 * that synthesis runs share it. Every caller of the same speech gets the same Audio object: its
 * samples must not be modified.
 */
export class SpeechSynthesizer {
  private readonly worker = new OnDemandWorker<SpeechWorkRequest, SpeechWorkReply>(new URL('./speech-worker.js', import.meta.url), 'speech worker', {
    // Its JavaScript makes little garbage: the engine's memory is WebAssembly's, outside the heap.
    maxYoungGenerationSizeMb: 8,
  });
  private readonly cache: LRUCache<string, Audio>;
  private readonly inFlight = new Map<string, Promise<Audio>>();
  private readonly counters: SpeechStats = { synthesized: 0, cacheHits: 0, audioMs: 0, cpuMs: 0 };
  private readonly maxSpeechSeconds: number;
  private closed = false;

  constructor(options: SpeechSynthesizerOptions = {}) {
    this.cache = new LRUCache<string, Audio>({
      maxSize: options.cacheBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (audio) => Math.max(1, audio.samples.byteLength),
    });
    this.maxSpeechSeconds = options.maxSpeechSeconds ?? 30 * 60;
  }

  /** Rejects with SpeechRequestError when the request cannot be spoken. */
  synthesize(request: SpeechRequest): Promise<Audio> {
    if (this.closed) return Promise.reject(new Error('the speech synthesizer was closed'));
    let job: SpeechJob;
    try {
      job = speechJob(request);
    } catch (error) {
      return Promise.reject(error);
    }
    const key = speechJobKey(job);
    const cached = this.cache.get(key) ?? this.inFlight.get(key);
    if (cached) {
      this.counters.cacheHits++;
      return cached instanceof Promise ? cached : Promise.resolve(cached);
    }
    const synthesis = this.run(job).then((audio) => {
      if (!this.closed) this.cache.set(key, audio);
      return audio;
    });
    this.inFlight.set(key, synthesis);
    const forget = (): void => {
      this.inFlight.delete(key);
    };
    synthesis.then(forget, forget);
    return synthesis;
  }

  private async run(job: SpeechJob): Promise<Audio> {
    const reply = await this.worker.request({ job, maxSeconds: this.maxSpeechSeconds });
    if ('error' in reply) throw reply.refused ? new SpeechRequestError(reply.error) : new Error(`speech synthesis failed: ${reply.error}`);
    const audio = { sampleRate: reply.sampleRate, samples: reply.samples };
    this.counters.synthesized++;
    this.counters.audioMs += audioMs(audio);
    this.counters.cpuMs += reply.cpuMs;
    return audio;
  }

  stats(): SpeechStats {
    return { ...this.counters, cpuMs: Math.round(this.counters.cpuMs) };
  }

  /** Stops the worker; pending requests fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.cache.clear();
    await this.worker.stop();
  }
}
