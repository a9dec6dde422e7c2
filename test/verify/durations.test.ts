import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DAY_MS, parseRate, parseTimeToLive, YEAR_MS } from '../../src/verify/durations.js';

describe('2FA time and rate grammars', () => {
  it('reads times to live with every unit, a missing length as 1, and refuses zero, over a year and other forms', () => {
    const value = (text: string) => {
      const parsed = parseTimeToLive(text);
      return parsed.ok ? parsed.value : parsed.problem;
    };
    assert.deepEqual(['15m', 'h', '500ms', '30s', '2d', '365d'].map(value), [900_000, 3_600_000, 500, 30_000, 2 * DAY_MS, YEAR_MS]);
    for (const bad of ['0m', '366d', '8761h', '15', 'm15', '15 m', '15M', '-1m', '1.5h', '']) assert.equal(typeof value(bad), 'string', bad);
  });

  it('reads rates with their bound on the window and refuses zero attempts', () => {
    assert.deepEqual(parseRate('3/1d', YEAR_MS, '1 year'), { ok: true, value: { attempts: 3, windowMs: DAY_MS } });
    assert.deepEqual(parseRate('10000/d', YEAR_MS, '1 year'), { ok: true, value: { attempts: 10000, windowMs: DAY_MS } });
    assert.deepEqual(parseRate('1/3s', DAY_MS, '1 day'), { ok: true, value: { attempts: 1, windowMs: 3000 } });
    const problem = (text: string, max = DAY_MS) => {
      const parsed = parseRate(text, max, '1 day');
      return parsed.ok ? undefined : parsed.problem;
    };
    assert.match(problem('1/2d')!, /at most 1 day/);
    assert.match(problem('0/1s')!, /attempts/);
    assert.match(problem('99999999999/1s')!, /must be/, 'more digits than an int32 has');
    for (const bad of ['3', '/1d', '3/', '3/1y', '3:1d', ' 3/1d']) assert.ok(problem(bad), bad);
  });
});
