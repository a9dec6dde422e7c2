import type { Audio } from '../audio.js';
import { AudioDecodeError, MAX_DECODED_SECONDS } from './audio-decode-error.js';

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;
const ENCODING_NAMES: Record<number, string> = { 2: 'ADPCM', 6: 'A-law', 7: 'µ-law', 0x11: 'IMA ADPCM', 0x31: 'GSM 6.10', 0x55: 'MP3' };

interface WavFormat {
  encoding: number;
  channels: number;
  sampleRate: number;
  bits: number;
}

/** One sample of a frame's channel, as a 16-bit value. */
type SampleReader = (view: DataView, at: number) => number;

function sampleReader({ encoding, bits }: WavFormat): SampleReader {
  if (encoding === PCM) {
    switch (bits) {
      case 8: return (view, at) => (view.getUint8(at) - 128) << 8;
      case 16: return (view, at) => view.getInt16(at, true);
      case 24: return (view, at) => view.getInt16(at + 1, true);
      case 32: return (view, at) => view.getInt32(at, true) >> 16;
    }
    throw new AudioDecodeError(`unsupported WAV encoding: ${bits}-bit`);
  }
  if (encoding === IEEE_FLOAT) {
    if (bits === 32) return (view, at) => Math.round(Math.max(-1, Math.min(1, view.getFloat32(at, true) || 0)) * 32767);
    throw new AudioDecodeError(`unsupported WAV encoding: ${bits}-bit float`);
  }
  throw new AudioDecodeError(`unsupported WAV encoding: ${ENCODING_NAMES[encoding] ?? `format 0x${encoding.toString(16).padStart(4, '0')}`}`);
}

function readFormat(view: DataView, at: number, size: number): WavFormat {
  if (size < 16) throw new AudioDecodeError('malformed WAV format chunk');
  let encoding = view.getUint16(at, true);
  // WAVE_FORMAT_EXTENSIBLE names the real encoding in the first two bytes of its sub-format GUID.
  if (encoding === EXTENSIBLE) {
    if (size < 40) throw new AudioDecodeError('malformed WAV format chunk');
    encoding = view.getUint16(at + 24, true);
  }
  return { encoding, channels: view.getUint16(at + 2, true), sampleRate: view.getUint32(at + 4, true), bits: view.getUint16(at + 14, true) };
}

function decodeSamples(format: WavFormat, view: DataView, at: number, size: number): Audio {
  if (format.channels !== 1 && format.channels !== 2) throw new AudioDecodeError(`unsupported WAV channel count: ${format.channels}`);
  if (format.sampleRate < 4000 || format.sampleRate > 192_000) throw new AudioDecodeError(`unsupported WAV sample rate: ${format.sampleRate} Hz`);
  const read = sampleReader(format);
  const sampleBytes = format.bits / 8;
  const frameBytes = sampleBytes * format.channels;
  const frames = Math.floor(size / frameBytes);
  if (frames > MAX_DECODED_SECONDS * format.sampleRate) throw new AudioDecodeError(`audio is longer than ${MAX_DECODED_SECONDS} s`);
  const samples = new Int16Array(frames);
  if (format.channels === 1) {
    for (let i = 0, p = at; i < frames; i++, p += frameBytes) samples[i] = read(view, p);
  } else {
    for (let i = 0, p = at; i < frames; i++, p += frameBytes) samples[i] = (read(view, p) + read(view, p + sampleBytes)) >> 1;
  }
  return { sampleRate: format.sampleRate, samples };
}

/**
 * Integer PCM (8, 16, 24, 32 bits) or 32-bit float, mono or stereo (mixed to mono). A data chunk
 * that claims more bytes than the file has is read as far as it goes: streaming writers leave its
 * size at 0 or 0xFFFFFFFF, and a truncated upload keeps what it has.
 */
export function decodeWav(bytes: Uint8Array): Audio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: WavFormat | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    const declared = view.getUint32(at + 4, true);
    const body = at + 8;
    const size = Math.min(declared, bytes.length - body);
    if (id === 'fmt ') {
      format = readFormat(view, body, size);
    } else if (id === 'data') {
      if (!format) throw new AudioDecodeError('WAV data before its format chunk');
      return decodeSamples(format, view, body, size);
    }
    at = body + declared + (declared & 1);
  }
  throw new AudioDecodeError(format ? 'WAV file has no data chunk' : 'WAV file has no format chunk');
}
