import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Mp3Encoder } from '@breezystack/lamejs';
import { audioMs } from '../../../src/voice/media/audio.js';
import { AudioDecodeError } from '../../../src/voice/media/codecs/audio-decode-error.js';
import { decodeAudio } from '../../../src/voice/media/codecs/decode-audio.js';
import { sineTone, toneLevel } from './signal.js';

/** LAME lowers the sample rate when the bit rate is too low for it: 64 kbit/s keeps 22.05 kHz mono, 128 kbit/s 44.1 kHz stereo. */
function mp3(left: Int16Array, sampleRate: number, right?: Int16Array): Uint8Array {
  const encoder = new Mp3Encoder(right ? 2 : 1, sampleRate, right ? 128 : 64);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < left.length; at += 1152) parts.push(encoder.encodeBuffer(left.subarray(at, at + 1152), right?.subarray(at, at + 1152)));
  parts.push(encoder.flush());
  return Buffer.concat(parts.map((part) => new Uint8Array(part.buffer, part.byteOffset, part.byteLength)));
}

/** An ID3v2.3 tag holding a title, as many MP3 files begin. */
function id3Tag(title: string): Uint8Array {
  const text = Buffer.from(`\u0000${title}`, 'latin1');
  const frame = Buffer.concat([Buffer.from('TIT2'), Buffer.from([0, 0, 0, text.length, 0, 0]), text]);
  const size = frame.length;
  return Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]), frame]);
}

const refusedOrDecoded = async (bytes: Uint8Array, label: string): Promise<void> => {
  try {
    await decodeAudio(bytes);
  } catch (error) {
    assert.ok(error instanceof AudioDecodeError, `${label}: ${String(error)}`);
  }
};

describe('MP3', () => {
  it('decodes to mono at the file’s rate, about as long as what was encoded and at the same pitch', async () => {
    const tone = sineTone(440, 2000, 22050);
    const bytes = mp3(tone.samples, 22050);
    const before = Buffer.from(bytes);
    const { format, audio } = await decodeAudio(bytes);
    assert.deepEqual(bytes, before, 'the bytes given are left as they were');
    assert.equal(format, 'MP3');
    assert.equal(audio.sampleRate, 22050);
    assert.ok(Math.abs(audioMs(audio) - 2000) < 150, `${audioMs(audio)} ms`);
    const middle = audio.samples.subarray(11025, 33075);
    assert.ok(toneLevel(middle, 22050, 440) > 20 * toneLevel(middle, 22050, 1000));
    assert.ok(toneLevel(middle, 22050, 440) > 0.8 * toneLevel(tone.samples.subarray(11025, 33075), 22050, 440));
  });

  it('mixes stereo to mono and skips an ID3 tag', async () => {
    const left = sineTone(440, 1000, 44100).samples;
    const right = sineTone(660, 1000, 44100).samples;
    const { format, audio } = await decodeAudio(Buffer.concat([id3Tag('Welcome'), mp3(left, 44100, right)]));
    assert.equal(format, 'MP3');
    assert.equal(audio.sampleRate, 44100);
    const middle = audio.samples.subarray(11025, 33075);
    const level440 = toneLevel(middle, 44100, 440);
    const level660 = toneLevel(middle, 44100, 660);
    assert.ok(level440 > 0.6 * level660 && level660 > 0.6 * level440, `${level440} and ${level660}`);
    assert.ok(level440 > 10 * toneLevel(middle, 44100, 1000));
  });

  it('refuses what only looks like MP3', async () => {
    // A frame header (128 kbit/s at 44.1 kHz: 417-byte frames) and less than one frame.
    const looksLikeAFrame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x44]), Buffer.alloc(300, 0x55)]);
    await assert.rejects(decodeAudio(looksLikeAFrame), (error: unknown) => error instanceof AudioDecodeError && error.message === 'no MP3 audio frames');
    await assert.rejects(decodeAudio(id3Tag('nothing after')), (error: unknown) => error instanceof AudioDecodeError && error.message === 'no MP3 audio frames');
  });

  it('answers any damaged file with AudioDecodeError or audio, never another error', async () => {
    const original = mp3(sineTone(300, 500, 16000).samples, 16000);
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 60; round++) {
      const damaged = original.slice(0, 4 + random(original.length));
      for (let flips = random(40); flips > 0; flips--) damaged[4 + random(damaged.length - 4)] = random(256);
      await refusedOrDecoded(damaged, `round ${round}`);
    }
    await refusedOrDecoded(Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x44]), new Uint8Array(50_000).map(() => random(256))]), 'random frames');
  });
});
