/** Mono 16-bit PCM: what speech synthesis yields, what files and URLs decode to, and what a call's recording is. */
export interface Audio {
  sampleRate: number;
  samples: Int16Array;
}

/** Length of the audio in whole milliseconds. */
export const audioMs = (audio: Audio): number => Math.round((audio.samples.length * 1000) / audio.sampleRate);
