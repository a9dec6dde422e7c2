import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AudioDecodeError } from '../../../src/voice/media/codecs/audio-decode-error.js';
import { decodeAudio } from '../../../src/voice/media/codecs/decode-audio.js';
import { encodeWav } from '../../../src/voice/media/codecs/wav-encoder.js';
import { float32, littleEndian, wavFile } from './wav-file.js';
import { sineTone } from './signal.js';

const decodedSamples = async (bytes: Uint8Array): Promise<number[]> => {
  const { format, audio } = await decodeAudio(bytes);
  assert.equal(format, 'WAV');
  return [...audio.samples];
};

const refusal = async (bytes: Uint8Array, reason: string | RegExp): Promise<void> => {
  await assert.rejects(decodeAudio(bytes), (error: unknown) => {
    assert.ok(error instanceof AudioDecodeError, `an AudioDecodeError, not ${String(error)}`);
    if (typeof reason === 'string') assert.equal(error.message, reason);
    else assert.match(error.message, reason);
    return true;
  });
};

describe('WAV', () => {
  it('encodes 16-bit mono PCM that decodes to the same samples', async () => {
    const tone = sineTone(440, 250, 16000, 30_000);
    tone.samples[0] = -32768;
    tone.samples[1] = 32767;
    const bytes = encodeWav(tone);
    assert.equal(bytes.length, 44 + tone.samples.length * 2);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), 'RIFF');
    const { format, audio } = await decodeAudio(bytes);
    assert.equal(format, 'WAV');
    assert.equal(audio.sampleRate, 16000);
    assert.deepEqual(audio.samples, tone.samples);
    const part = { sampleRate: 8000, samples: tone.samples.subarray(100, 200) };
    assert.deepEqual((await decodeAudio(encodeWav(part))).audio.samples, part.samples.slice());
  });

  it('decodes 8, 24 and 32-bit integer PCM and 32-bit float to 16 bits', async () => {
    assert.deepEqual(await decodedSamples(wavFile({ bits: 8, data: littleEndian([0, 128, 255], 1) })), [-32768, 0, 32512]);
    assert.deepEqual(await decodedSamples(wavFile({ bits: 24, data: littleEndian([-8388608, 256, 8388607], 3) })), [-32768, 1, 32767]);
    assert.deepEqual(await decodedSamples(wavFile({ bits: 32, data: littleEndian([-2147483648, 65536, 2147483647], 4) })), [-32768, 1, 32767]);
    assert.deepEqual(await decodedSamples(wavFile({ encoding: 3, bits: 32, data: float32([-1, 0, 0.5, 1, 4, Number.NaN]) })), [-32767, 0, 16384, 32767, 32767, 0]);
  });

  it('mixes stereo to mono and reads WAVE_FORMAT_EXTENSIBLE', async () => {
    assert.deepEqual(await decodedSamples(wavFile({ channels: 2, data: littleEndian([1000, 3000, -32768, -32768, 32767, -32768], 2) })), [2000, -32768, -1]);
    assert.deepEqual(await decodedSamples(wavFile({ extensible: true, encoding: 3, bits: 32, data: float32([0.25]) })), [8192]);
  });

  it('skips other chunks and reads a data chunk that claims more than the file holds', async () => {
    const leadingChunks = [{ id: 'LIST', body: new Uint8Array(7) }];
    assert.deepEqual(await decodedSamples(wavFile({ leadingChunks, data: littleEndian([1, 2, 3], 2) })), [1, 2, 3]);
    assert.deepEqual(await decodedSamples(wavFile({ data: littleEndian([4, 5], 2), declaredDataBytes: 0xffffffff })), [4, 5]);
    const truncated = wavFile({ data: littleEndian([6, 7, 8], 2) });
    assert.deepEqual(await decodedSamples(truncated.subarray(0, truncated.length - 1)), [6, 7]);
  });

  it('refuses encodings, channel counts and rates it cannot decode, saying which', async () => {
    await refusal(wavFile({ bits: 12, data: new Uint8Array(4) }), 'unsupported WAV encoding: 12-bit');
    await refusal(wavFile({ encoding: 3, bits: 64, data: new Uint8Array(8) }), 'unsupported WAV encoding: 64-bit float');
    await refusal(wavFile({ encoding: 6, bits: 8, data: new Uint8Array(4) }), 'unsupported WAV encoding: A-law');
    await refusal(wavFile({ encoding: 0x1234, bits: 8, data: new Uint8Array(4) }), 'unsupported WAV encoding: format 0x1234');
    await refusal(wavFile({ channels: 6, data: new Uint8Array(24) }), 'unsupported WAV channel count: 6');
    await refusal(wavFile({ sampleRate: 1, data: new Uint8Array(4) }), 'unsupported WAV sample rate: 1 Hz');
  });

  it('refuses files without their chunks, and what is not a WAV or MP3 file', async () => {
    const header = wavFile({ data: new Uint8Array(0) });
    await refusal(header.subarray(0, 12), 'WAV file has no format chunk');
    await refusal(header.subarray(0, 36), 'WAV file has no data chunk');
    await refusal(header.subarray(0, 30), 'malformed WAV format chunk');
    await refusal(new Uint8Array(0), 'not a WAV or MP3 file');
    await refusal(new TextEncoder().encode('<html>not audio</html>'), 'not a WAV or MP3 file');
  });

  it('answers any damaged file with AudioDecodeError or audio, never another error', async () => {
    const original = wavFile({ channels: 2, bits: 24, data: new Uint8Array(600).map((_, i) => i * 7) });
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 500; round++) {
      const damaged = original.slice(0, 12 + random(original.length));
      for (let flips = random(6); flips > 0; flips--) damaged[12 + random(damaged.length - 12)] = random(256);
      try {
        const { audio } = await decodeAudio(damaged);
        assert.ok(audio.samples.length <= damaged.length, `round ${round}: no more samples than bytes`);
      } catch (error) {
        assert.ok(error instanceof AudioDecodeError, `round ${round}: ${String(error)}`);
      }
    }
  });
});
