import type { Audio } from './audio.js';

const ROW_HZ = [697, 770, 852, 941];
const COLUMN_HZ = [1209, 1336, 1477, 1633];
const KEYPAD = ['123A', '456B', '789C', '*0#D'];

/** The two frequencies of a DTMF key: its keypad row's and its column's. */
export function dtmfFrequencies(digit: string): [number, number] {
  const key = digit.toUpperCase();
  const row = KEYPAD.findIndex((keys) => key.length === 1 && keys.includes(key));
  if (row < 0) throw new RangeError(`not a DTMF key: ${JSON.stringify(digit)}`);
  return [ROW_HZ[row]!, COLUMN_HZ[KEYPAD[row]!.indexOf(key)]!];
}

/** Each tone at about -9 dBFS, so the pair peaks at about -3 dBFS. */
const TONE_AMPLITUDE = 0.35 * 32767;
/** Onset and release, so the key press does not click. */
const RAMP_MS = 5;

/** The tone a phone sends for a key press (0-9, *, #, A-D), `ms` long. */
export function dtmfTone(digit: string, ms: number, sampleRate: number): Audio {
  const [low, high] = dtmfFrequencies(digit);
  const length = Math.max(0, Math.round((ms * sampleRate) / 1000));
  const ramp = Math.min(Math.round((RAMP_MS * sampleRate) / 1000), Math.floor(length / 2));
  const samples = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    const t = i / sampleRate;
    const edge = Math.min(i, length - 1 - i);
    const envelope = edge < ramp ? edge / ramp : 1;
    samples[i] = Math.round(TONE_AMPLITUDE * envelope * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)));
  }
  return { sampleRate, samples };
}
