import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { eventually } from '../helpers/server.js';
import { CONFIGURATION, VoiceFixture } from './voice-fixture.js';

/**
 * Inbound calls and key presses, with the sandbox at real-time pace (latency 1500 ms) on a manual
 * clock: speech plays for as long as it lasts, and the test moves time.
 */
describe('inbound calls, DTMF and the far end, over HTTP', () => {
  const clock = new ManualClock(Date.UTC(2025, 5, 1));
  let voice: VoiceFixture;
  before(async () => {
    voice = await VoiceFixture.start({ clock, env: { SWITCHBOARD_SANDBOX_LATENCY_MS: '1500' } });
  });
  after(() => voice.close());

  const inbound = async (extra: Record<string, unknown> = {}): Promise<string> => {
    const response = await voice.server.request('POST', '/sandbox/1/calls/inbound', { body: { from: '+41793026727', to: '41790000000', ...extra } });
    assert.equal(response.status, 200, response.text);
    return response.json().id as string;
  };
  const press = async (callId: string, digits: string) => {
    const response = await voice.server.request('POST', `/sandbox/1/calls/${callId}/dtmf`, { body: { digits } });
    assert.equal(response.status, 200, response.text);
  };
  const timeline = async (callId: string) =>
    (await voice.server.request('GET', `/sandbox/1/calls/${callId}/timeline`)).json().entries as Array<Record<string, unknown>>;
  /** Waits until the call's timeline shows an entry of this type (the media started playing). */
  const playing = (callId: string, type: string) => eventually(async () => (await timeline(callId)).find((e) => e.type === type));

  it('rings, is answered by the application and captures the digits pressed during and after its prompt', async () => {
    const id = await inbound({ callsConfigurationId: CONFIGURATION });
    const received = await voice.event(id, 'CALL_RECEIVED');
    const call = received.properties?.call;
    assert.deepEqual([call.direction, call.state, call.from, call.to, call.endpoint], ['INBOUND', 'CALLING', '41793026727', '41790000000', { type: 'PHONE', phoneNumber: '41793026727' }]);
    assert.deepEqual((await voice.action(id, 'send-ringing')).json, { status: 'PENDING' });
    assert.equal((await voice.action(id, 'answer', { customData: { agent: 'ivr' } })).status, 200);
    await voice.event(id, 'CALL_ESTABLISHED');

    const capture = await voice.action(id, 'capture/dtmf', {
      maxLength: 4,
      timeout: 5000,
      digitTimeout: 3000,
      playContent: { type: 'TEXT', text: 'Please enter your four digit PIN', language: 'en' },
    });
    assert.equal(capture.status, 200);
    await playing(id, 'PLAY');
    clock.advance(700);
    await press(id, '12');
    clock.advance(1000);
    await press(id, '34');
    const captured = await voice.event(id, 'DTMF_CAPTURED');
    assert.deepEqual(captured.properties, { dtmf: '1234', timeout: false, playedContentProperties: { duration: 700, playedCompletely: false } });
    assert.deepEqual(voice.types(id), ['CALL_RECEIVED', 'CALL_RINGING', 'CALL_ESTABLISHED', 'DTMF_CAPTURED']);
    const keys = (await timeline(id)).filter((e) => e.type === 'DTMF_RECEIVED').map((e) => e.digit);
    assert.deepEqual(keys, ['1', '2', '3', '4']);
  });

  it('stops speech on its terminator key with the digit captured, and ends a capture that waited too long', async () => {
    const id = await inbound();
    await voice.event(id, 'CALL_RECEIVED');
    await voice.action(id, 'answer', {});
    await voice.action(id, 'say', { text: 'Press hash to skip this long message about nothing at all', language: 'en', stopOn: { type: 'DTMF', terminator: '#' } });
    await playing(id, 'SAY');
    clock.advance(300);
    await press(id, '5');
    clock.advance(200);
    await press(id, '#');
    const finished = await voice.event(id, 'SAY_FINISHED');
    assert.deepEqual(finished.properties, { duration: 500, playedCompletely: false, capturedDtmf: '#' });

    await voice.action(id, 'capture/dtmf', { maxLength: 6, timeout: 3000, terminator: '#' });
    clock.advance(2999);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(!voice.types(id).includes('DTMF_CAPTURED'), 'not before the timeout');
    clock.advance(1);
    const timedOut = await voice.event(id, 'DTMF_CAPTURED');
    assert.deepEqual(timedOut.properties, { dtmf: '', timeout: true });
  });

  it('ends when the phone hangs up, and is CANCELLED when the application never answers', async () => {
    const answered = await inbound();
    await voice.event(answered, 'CALL_RECEIVED');
    await voice.action(answered, 'answer', {});
    await voice.event(answered, 'CALL_ESTABLISHED');
    clock.advance(4000);
    const hungUp = await voice.server.request('POST', `/sandbox/1/calls/${answered}/hangup`);
    assert.equal(hungUp.json().state, 'FINISHED');
    const log = (await voice.event(answered, 'CALL_FINISHED')).properties?.callLog;
    assert.deepEqual([log.hangupSource, log.errorCode.name, log.duration], ['ENDPOINT', 'NORMAL_HANGUP', 4]);

    const ignored = await inbound({ connectTimeout: 5 });
    await voice.event(ignored, 'CALL_RECEIVED');
    clock.advance(5000);
    const failed = (await voice.event(ignored, 'CALL_FAILED')).properties?.callLog;
    assert.deepEqual([failed.state, failed.errorCode.name, failed.hangupSource], ['CANCELLED', 'CANCELLED', 'ENDPOINT']);

    const rejected = await inbound();
    await voice.event(rejected, 'CALL_RECEIVED');
    const busy = await voice.action(rejected, 'hangup', { errorCode: 'BUSY' });
    assert.deepEqual([busy.json.state, (await voice.event(rejected, 'CALL_FAILED')).properties?.callLog.errorCode.id], ['BUSY', 10201]);
  });

  it('plays early media after pre-answer, stops and drops what plays on stop-play, and sends keys to the phone', async () => {
    const id = await inbound();
    await voice.event(id, 'CALL_RECEIVED');
    assert.deepEqual((await voice.action(id, 'pre-answer', { ringing: true })).json, { status: 'PENDING' });
    const early = await voice.event(id, 'CALL_PRE_ESTABLISHED');
    assert.equal(early.properties?.call.state, 'PRE_ESTABLISHED');
    await voice.action(id, 'say', { text: 'Please hold while we find an agent for you', language: 'en' });
    await voice.action(id, 'say', { text: 'This one never plays', language: 'en' });
    await playing(id, 'SAY');
    clock.advance(800);
    assert.equal((await voice.action(id, 'stop-play')).status, 200, 'stop-play takes no body');
    await eventually(async () => (voice.types(id).filter((t) => t === 'SAY_FINISHED').length === 2 ? true : undefined));
    assert.deepEqual(
      voice.events(id).filter((e) => e.type === 'SAY_FINISHED').map((e) => e.properties),
      [{ duration: 800, playedCompletely: false }, { duration: 0, playedCompletely: false }],
    );
    await voice.action(id, 'answer', {});
    await voice.event(id, 'CALL_ESTABLISHED');
    assert.equal((await voice.action(id, 'send-dtmf', { dtmf: '12#' })).status, 200);
    const sent = (await timeline(id)).filter((e) => e.type === 'DTMF_SENT');
    assert.deepEqual(sent.map((e) => e.digits), ['12#']);
    assert.equal((await voice.action(id, 'pre-answer', {})).status, 400, 'an answered call is not pre-answered');
  });

  it('needs a calls configuration to be named when the account has several, and a known call for the far end to act on', async () => {
    assert.equal((await voice.server.request('POST', '/calls/1/configurations', { body: { id: 'second' } })).status, 201);
    const unnamed = await voice.server.request('POST', '/sandbox/1/calls/inbound', { body: { from: '41793026727', to: '41790000000' } });
    assert.deepEqual([unnamed.status, Object.keys(unnamed.json().requestError.serviceException.validationErrors)], [400, ['callsConfigurationId']]);
    assert.equal((await voice.server.request('DELETE', '/calls/1/configurations/second')).status, 200);
    assert.equal((await voice.server.request('POST', '/sandbox/1/calls/nope/dtmf', { body: { digits: '1' } })).status, 404);
    assert.equal((await voice.server.request('POST', '/sandbox/1/calls/nope/dtmf', { body: { digits: 'xyz' } })).status, 400);
  });
});
