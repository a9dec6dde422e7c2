import type { Audio } from './audio.js';

/**
 * The audio at another sample rate, by linear interpolation between neighbouring samples. Enough for
 * speech and prompts heard on a phone; it does not filter, so content above the new rate's Nyquist
 * frequency folds back. The same audio is returned when the rate is already right.
 */
export function resample(audio: Audio, sampleRate: number): Audio {
  if (audio.sampleRate === sampleRate) return audio;
  const source = audio.samples;
  const length = Math.floor((source.length * sampleRate) / audio.sampleRate);
  const samples = new Int16Array(length);
  const step = audio.sampleRate / sampleRate;
  const last = source.length - 1;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const index = Math.floor(position);
    const fraction = position - index;
    const a = source[index]!;
    const b = source[Math.min(index + 1, last)]!;
    samples[i] = Math.round(a + (b - a) * fraction);
  }
  return { sampleRate, samples };
}
