export type AudioFormat = 'WAV' | 'MP3';

const ascii = (bytes: Uint8Array, at: number, text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

/** An MPEG audio frame header: the 11-bit sync, then no reserved version, layer, bit rate or sample rate. */
export function isMpegFrameHeader(bytes: Uint8Array, at: number): boolean {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return false;
  const version = (bytes[at + 1]! >> 3) & 3;
  const layer = (bytes[at + 1]! >> 1) & 3;
  const bitrate = bytes[at + 2]! >> 4;
  const sampleRate = (bytes[at + 2]! >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && sampleRate !== 3;
}

/** The format by its first bytes: a RIFF WAVE header, or an ID3 tag or MPEG audio frame (MP3). */
export function sniffAudioFormat(bytes: Uint8Array): AudioFormat | undefined {
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return 'WAV';
  if (ascii(bytes, 0, 'ID3') || isMpegFrameHeader(bytes, 0)) return 'MP3';
  return undefined;
}
