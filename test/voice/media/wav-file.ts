/** Builds WAV files of any encoding for decoder tests. */
export interface WavSpec {
  encoding?: number;
  channels?: number;
  sampleRate?: number;
  bits?: number;
  /** Frames of interleaved sample bytes, written as given. */
  data: Uint8Array;
  /** Format chunk as WAVE_FORMAT_EXTENSIBLE, naming `encoding` in its sub-format. */
  extensible?: boolean;
  /** Data chunk size to declare instead of the real one. */
  declaredDataBytes?: number;
  /** Chunks before the format chunk. */
  leadingChunks?: Array<{ id: string; body: Uint8Array }>;
}

function chunk(id: string, body: Uint8Array, declared = body.length): Uint8Array {
  const bytes = new Uint8Array(8 + body.length + (body.length & 1));
  for (let i = 0; i < 4; i++) bytes[i] = id.charCodeAt(i);
  new DataView(bytes.buffer).setUint32(4, declared, true);
  bytes.set(body, 8);
  return bytes;
}

export function wavFile(spec: WavSpec): Uint8Array {
  const { encoding = 1, channels = 1, sampleRate = 8000, bits = 16 } = spec;
  const format = new Uint8Array(spec.extensible ? 40 : 16);
  const view = new DataView(format.buffer);
  view.setUint16(0, spec.extensible ? 0xfffe : encoding, true);
  view.setUint16(2, channels, true);
  view.setUint32(4, sampleRate, true);
  view.setUint32(8, (sampleRate * channels * bits) / 8, true);
  view.setUint16(12, (channels * bits) / 8, true);
  view.setUint16(14, bits, true);
  if (spec.extensible) {
    view.setUint16(16, 22, true);
    view.setUint16(18, bits, true);
    view.setUint16(24, encoding, true);
  }
  const chunks = [...(spec.leadingChunks ?? []).map((c) => chunk(c.id, c.body)), chunk('fmt ', format), chunk('data', spec.data, spec.declaredDataBytes)];
  const size = chunks.reduce((sum, c) => sum + c.length, 4);
  const file = new Uint8Array(8 + size);
  file.set([0x52, 0x49, 0x46, 0x46], 0);
  new DataView(file.buffer).setUint32(4, size, true);
  file.set([0x57, 0x41, 0x56, 0x45], 8);
  let at = 12;
  for (const c of chunks) {
    file.set(c, at);
    at += c.length;
  }
  return file;
}

export function littleEndian(values: number[], bytesEach: number): Uint8Array {
  const bytes = new Uint8Array(values.length * bytesEach);
  const view = new DataView(bytes.buffer);
  values.forEach((value, i) => {
    if (bytesEach === 1) view.setUint8(i, value);
    else if (bytesEach === 2) view.setInt16(i * 2, value, true);
    else if (bytesEach === 3) {
      view.setUint8(i * 3, value & 0xff);
      view.setInt16(i * 3 + 1, value >> 8, true);
    } else view.setInt32(i * 4, value, true);
  });
  return bytes;
}

export function float32(values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  values.forEach((value, i) => new DataView(bytes.buffer).setFloat32(i * 4, value, true));
  return bytes;
}
