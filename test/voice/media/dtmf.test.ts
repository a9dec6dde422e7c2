import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dtmfFrequencies, dtmfTone } from '../../../src/voice/media/dtmf.js';
import { toneLevel } from './signal.js';

const ALL_HZ = [697, 770, 852, 941, 1209, 1336, 1477, 1633];

describe('DTMF tones', () => {
  it('have energy at their key’s row and column frequency and not at the other six', () => {
    for (const key of '0123456789*#ABCD') {
      const tone = dtmfTone(key, 100, 8000);
      assert.equal(tone.samples.length, 800);
      assert.equal(tone.sampleRate, 8000);
      const [low, high] = dtmfFrequencies(key);
      const levels = new Map(ALL_HZ.map((hz) => [hz, toneLevel(tone.samples, 8000, hz)]));
      const quietest = Math.min(levels.get(low)!, levels.get(high)!);
      for (const hz of ALL_HZ.filter((hz) => hz !== low && hz !== high)) {
        assert.ok(levels.get(hz)! * 10 < quietest, `key ${key}: ${hz} Hz at ${levels.get(hz)} against ${quietest}`);
      }
    }
  });

  it('use the standard keypad frequencies', () => {
    assert.deepEqual(dtmfFrequencies('1'), [697, 1209]);
    assert.deepEqual(dtmfFrequencies('5'), [770, 1336]);
    assert.deepEqual(dtmfFrequencies('9'), [852, 1477]);
    assert.deepEqual(dtmfFrequencies('0'), [941, 1336]);
    assert.deepEqual(dtmfFrequencies('*'), [941, 1209]);
    assert.deepEqual(dtmfFrequencies('#'), [941, 1477]);
    assert.deepEqual(dtmfFrequencies('d'), [941, 1633]);
  });

  it('stay within 16 bits, fade in and out, and refuse what is not a key', () => {
    const tone = dtmfTone('#', 200, 16000);
    assert.ok(Math.max(...tone.samples.map(Math.abs)) < 32767 * 0.75);
    assert.equal(tone.samples[0], 0);
    assert.ok(Math.abs(tone.samples.at(-1)!) < 500);
    assert.throws(() => dtmfTone('E', 100, 8000), RangeError);
    assert.throws(() => dtmfTone('12', 100, 8000), RangeError);
    assert.throws(() => dtmfTone('', 100, 8000), RangeError);
  });
});
