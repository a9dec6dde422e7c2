import { endianness } from 'node:os';
import type { Audio } from '../audio.js';

const HEADER_BYTES = 44;
/** WAV samples are little-endian, as Int16Array's are on such a machine: they can be copied as they are. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** A canonical WAV file: 16-bit PCM, mono, at the audio's sample rate. */
export function encodeWav(audio: Audio): Uint8Array {
  const dataBytes = audio.samples.length * 2;
  const bytes = new Uint8Array(HEADER_BYTES + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string): void => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  const { samples } = audio;
  if (LITTLE_ENDIAN) bytes.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength), HEADER_BYTES);
  else for (let i = 0; i < samples.length; i++) view.setInt16(HEADER_BYTES + i * 2, samples[i]!, true);
  return bytes;
}
