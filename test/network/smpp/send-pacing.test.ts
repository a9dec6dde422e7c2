import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SendPacing } from '../../../src/network/smpp/send-pacing.js';

/** Sends as soon as the pacing allows, from `start`, and returns each send's time. */
function sendTimes(pacing: SendPacing, count: number, start = 1_000): number[] {
  const times: number[] = [];
  let now = start;
  for (let i = 0; i < count; i++) {
    now += pacing.waitMs(now);
    times.push(now);
    pacing.sent(now);
  }
  return times;
}

describe('SendPacing', () => {
  it('spaces sends at the configured rate once a tenth of a second has gone in a burst', () => {
    // 20/s is one every 50 ms; up to 100 ms' worth may go at once, so timers' granularity costs no rate.
    assert.deepEqual(sendTimes(new SendPacing(20), 10), [1_000, 1_000, 1_000, 1_000, 1_050, 1_100, 1_150, 1_200, 1_250, 1_300]);
  });

  it('never waits with no rate configured', () => {
    assert.deepEqual(sendTimes(new SendPacing(0), 5), [1_000, 1_000, 1_000, 1_000, 1_000]);
  });

  it('does not save up idle time for a bigger burst later', () => {
    const pacing = new SendPacing(10);
    assert.deepEqual(sendTimes(pacing, 3, 0), [0, 100, 200]);
    assert.deepEqual(sendTimes(pacing, 5, 60_000), [60_000, 60_000, 60_000, 60_100, 60_200]);
  });

  it('pauses after throttling, doubling while it goes on, and starts over once answered', () => {
    const pacing = new SendPacing(0);
    pacing.throttled(0);
    assert.equal(pacing.waitMs(0), 200);
    pacing.throttled(200);
    assert.equal(pacing.waitMs(200), 400);
    for (let i = 0; i < 10; i++) pacing.throttled(1_000);
    assert.equal(pacing.waitMs(1_000), 5_000, 'capped at five seconds');
    pacing.answered();
    pacing.throttled(10_000);
    assert.equal(pacing.waitMs(10_000), 200);
  });
});
