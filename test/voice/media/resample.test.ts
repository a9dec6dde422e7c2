import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resample } from '../../../src/voice/media/resample.js';
import { toneLevel, sineTone } from './signal.js';

describe('resample', () => {
  it('keeps the duration and the pitch of a tone', () => {
    const tone = sineTone(440, 1000, 22050);
    const down = resample(tone, 8000);
    assert.equal(down.sampleRate, 8000);
    assert.equal(down.samples.length, 8000);
    assert.ok(toneLevel(down.samples, 8000, 440) > 20 * toneLevel(down.samples, 8000, 600));
    const up = resample(tone, 48000);
    assert.equal(up.samples.length, 48000);
    assert.ok(toneLevel(up.samples, 48000, 440) > 20 * toneLevel(up.samples, 48000, 600));
  });

  it('interpolates between neighbouring samples', () => {
    const ramp = { sampleRate: 4000, samples: Int16Array.from([0, 100, 200, 300]) };
    assert.deepEqual([...resample(ramp, 8000).samples], [0, 50, 100, 150, 200, 250, 300, 300]);
  });

  it('returns the same audio when the rate is already right', () => {
    const tone = sineTone(440, 10, 8000);
    assert.equal(resample(tone, 8000), tone);
  });
});
