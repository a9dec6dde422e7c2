import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderTrack } from '../../../src/voice/media/render-track.js';
import { constant, sineTone, toneLevel } from './signal.js';

const count = (samples: Int16Array, from: number, to: number, value: number): number => samples.subarray(from, to).filter((s) => s === value).length;

describe('renderTrack', () => {
  it('places each segment where it was heard, silent elsewhere', () => {
    const track = renderTrack([{ atMs: 100, audio: constant(1000, 80, 8000) }, { atMs: 500, audio: constant(-2000, 160, 8000) }], 1000, 8000);
    assert.equal(track.sampleRate, 8000);
    assert.equal(track.samples.length, 8000);
    assert.equal(count(track.samples, 0, 800, 0), 800);
    assert.equal(count(track.samples, 800, 880, 1000), 80);
    assert.equal(count(track.samples, 880, 4000, 0), 3120);
    assert.equal(count(track.samples, 4000, 4160, -2000), 160);
    assert.equal(count(track.samples, 4160, 8000, 0), 3840);
  });

  it('skips offsetMs of a segment and keeps at most lengthMs of it', () => {
    const ramp = { sampleRate: 1000, samples: Int16Array.from({ length: 100 }, (_, i) => i) };
    const track = renderTrack([{ atMs: 10, audio: ramp, offsetMs: 20, lengthMs: 30 }], 100, 1000);
    assert.deepEqual([...track.samples.subarray(10, 40)], Array.from({ length: 30 }, (_, i) => 20 + i));
    assert.equal(count(track.samples, 0, 10, 0), 10);
    assert.equal(count(track.samples, 40, 100, 0), 60);
  });

  it('adds overlapping segments and saturates at the 16-bit limits', () => {
    const track = renderTrack(
      [
        { atMs: 0, audio: constant(20_000, 100, 1000) },
        { atMs: 50, audio: constant(20_000, 100, 1000) },
        { atMs: 0, audio: constant(-5000, 30, 1000) },
        { atMs: 150, audio: constant(-30_000, 10, 1000) },
        { atMs: 150, audio: constant(-30_000, 10, 1000) },
      ],
      200,
      1000,
    );
    assert.equal(count(track.samples, 0, 30, 15_000), 30);
    assert.equal(count(track.samples, 30, 50, 20_000), 20);
    assert.equal(count(track.samples, 50, 100, 32_767), 50);
    assert.equal(count(track.samples, 100, 150, 20_000), 50);
    assert.equal(count(track.samples, 150, 160, -32_768), 10);
  });

  it('resamples segments to the recording’s rate', () => {
    const track = renderTrack([{ atMs: 250, audio: sineTone(440, 500, 22050) }], 1000, 8000);
    const heard = track.samples.subarray(2000, 6000);
    assert.ok(toneLevel(heard, 8000, 440) > 20 * toneLevel(heard, 8000, 700));
    assert.equal(count(track.samples, 0, 2000, 0), 2000);
    assert.equal(count(track.samples, 6000, 8000, 0), 2000);
  });

  it('cuts what falls before the start or after the end of the recording', () => {
    const track = renderTrack([{ atMs: -20, audio: constant(7, 50, 1000) }, { atMs: 90, audio: constant(9, 50, 1000) }], 100, 1000);
    assert.equal(track.samples.length, 100);
    assert.equal(count(track.samples, 0, 30, 7), 30);
    assert.equal(count(track.samples, 30, 90, 0), 60);
    assert.equal(count(track.samples, 90, 100, 9), 10);
    assert.equal(renderTrack([{ atMs: 0, audio: constant(1, 10, 1000), offsetMs: 50 }], 20, 1000).samples.filter((s) => s !== 0).length, 0);
  });
});
