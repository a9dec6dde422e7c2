import type { Audio } from './audio.js';
import { resample } from './resample.js';

/** A piece of audio heard in a recording. */
export interface TrackSegment {
  /** Where in the recording it starts. */
  atMs: number;
  audio: Audio;
  /** How much of the audio's beginning is skipped. */
  offsetMs?: number;
  /** At most this much of it is heard (a play cut short by hangup, a key press or a timeout). */
  lengthMs?: number;
}

const samplesIn = (ms: number, sampleRate: number): number => Math.round((ms * sampleRate) / 1000);

/**
 * A recording `totalMs` long: each segment's audio placed where it was heard, at the recording's
 * sample rate. Overlapping segments are added together and the sum saturates at the 16-bit limits;
 * where nothing was heard the recording is silent. Whatever falls outside the recording is cut.
 */
export function renderTrack(segments: readonly TrackSegment[], totalMs: number, sampleRate: number): Audio {
  const mix = new Int32Array(Math.max(0, samplesIn(totalMs, sampleRate)));
  for (const segment of segments) {
    const source = segment.audio;
    const from = Math.min(source.samples.length, Math.max(0, samplesIn(segment.offsetMs ?? 0, source.sampleRate)));
    const to = segment.lengthMs === undefined ? source.samples.length : Math.min(source.samples.length, from + Math.max(0, samplesIn(segment.lengthMs, source.sampleRate)));
    const piece = resample({ sampleRate: source.sampleRate, samples: source.samples.subarray(from, to) }, sampleRate).samples;
    const at = samplesIn(segment.atMs, sampleRate);
    const first = Math.max(0, -at);
    const last = Math.min(piece.length, mix.length - at);
    for (let i = first; i < last; i++) mix[at + i] += piece[i]!;
  }
  const samples = new Int16Array(mix.length);
  for (let i = 0; i < mix.length; i++) samples[i] = Math.max(-32768, Math.min(32767, mix[i]!));
  return { sampleRate, samples };
}
