import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { decodeWav } from '../../src/voice/media/codecs/wav-decoder.js';
import { SpeechSynthesizer } from '../../src/voice/media/speech/speech-synthesizer.js';
import { eventually } from '../helpers/server.js';
import { VoiceFixture } from './voice-fixture.js';

/**
 * The speech of a `say`, measured on its own: the same words synthesized apart from the call, by a
 * speech engine of the test's own, against SAY_FINISHED and against what the far end heard. The
 * sandbox plays at real-time pace (latency 1500 ms) on a manual clock, so the call hears nothing
 * but the speech between its answer and its hangup.
 */
describe('speech on a call, over HTTP', () => {
  const clock = new ManualClock(Date.UTC(2025, 7, 1));
  const synthesizer = new SpeechSynthesizer();
  let voice: VoiceFixture;
  before(async () => {
    voice = await VoiceFixture.start({ clock, env: { SWITCHBOARD_SANDBOX_LATENCY_MS: '1500' } });
  });
  after(async () => {
    await voice.close();
    await synthesizer.close();
  });

  it("lasts, alone, what SAY_FINISHED.duration says, and is exactly what the far end heard", async () => {
    const request = { text: 'Your code is 1 2 3 4', language: 'en', speechRate: 0.9 };
    const own = await synthesizer.synthesize(request);
    const ownMs = Math.round((own.samples.length * 1000) / own.sampleRate);

    const id = await voice.call('41793026727');
    await voice.event(id, 'CALL_STARTED');
    clock.advance(300);
    await voice.event(id, 'CALL_RINGING');
    clock.advance(1200);
    const answeredAt = clock.now();
    await voice.event(id, 'CALL_ESTABLISHED');
    assert.equal((await voice.action(id, 'say', request)).status, 200);
    await eventually(async () => {
      const entries = (await voice.server.request('GET', `/sandbox/1/calls/${id}/timeline`)).json().entries as Array<{ type: string }>;
      return entries.some((e) => e.type === 'SAY') ? true : undefined;
    });

    clock.advance(ownMs);
    const finished = await voice.event(id, 'SAY_FINISHED');
    assert.deepEqual(finished.properties, { duration: ownMs, playedCompletely: true });
    assert.equal(finished.timestamp, formatInfobipTime(answeredAt + ownMs), 'it ended when that much audio had played');

    assert.equal((await voice.action(id, 'hangup', {})).status, 200);
    await voice.event(id, 'CALL_FINISHED');
    const response = await fetch(`${voice.server.url}/sandbox/1/calls/${id}/audio`, { headers: { authorization: `App ${voice.server.apiKey}` } });
    const heard = decodeWav(new Uint8Array(await response.arrayBuffer()));
    assert.equal(heard.sampleRate, own.sampleRate, 'the recording is at the speech engine’s own rate');
    // The recording is cut to whole milliseconds: it may differ from the speech by under a millisecond's samples.
    const perMs = own.sampleRate / 1000;
    assert.ok(Math.abs(heard.samples.length - own.samples.length) < perMs, `${heard.samples.length} samples heard, ${own.samples.length} spoken`);
    const common = Math.min(heard.samples.length, own.samples.length);
    assert.ok(
      heard.samples.subarray(0, common).every((sample, i) => sample === own.samples[i]),
      'what the far end heard is the speech itself, from its first sample',
    );
  });
});
