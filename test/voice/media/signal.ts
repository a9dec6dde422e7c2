import type { Audio } from '../../../src/voice/media/audio.js';

/** Power of one frequency in a stretch of samples (Goertzel), normalized by its length. */
export function toneLevel(samples: Int16Array, sampleRate: number, hz: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return Math.sqrt(power) / samples.length;
}

export function rms(samples: Int16Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

export function sineTone(hz: number, ms: number, sampleRate: number, amplitude = 10_000): Audio {
  const samples = new Int16Array(Math.round((ms * sampleRate) / 1000));
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate));
  return { sampleRate, samples };
}

export const constant = (value: number, length: number, sampleRate: number): Audio => ({ sampleRate, samples: new Int16Array(length).fill(value) });
