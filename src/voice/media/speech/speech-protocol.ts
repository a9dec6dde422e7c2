import type { SpeechJob } from './speech-request.js';

/** What the speech synthesizer asks its worker thread. */
export type SpeechWorkRequest = { job: SpeechJob; maxSeconds: number };

export type SpeechWorkReply =
  | { samples: Int16Array; sampleRate: number; cpuMs: number }
  /** `refused`: the request cannot be spoken (too long); otherwise the engine failed. */
  | { error: string; refused: boolean };
