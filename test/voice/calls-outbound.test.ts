import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../helpers/server.js';
import { CONFIGURATION, VoiceFixture } from './voice-fixture.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/;

/** Seconds of audio in a 16-bit mono WAV, from its header and its data chunk. */
function wavSeconds(bytes: Buffer): { seconds: number; sampleRate: number } {
  assert.equal(bytes.toString('ascii', 0, 4), 'RIFF');
  assert.equal(bytes.toString('ascii', 8, 12), 'WAVE');
  const sampleRate = bytes.readUInt32LE(24);
  assert.equal(bytes.readUInt16LE(22), 1, 'mono');
  assert.equal(bytes.readUInt16LE(34), 16, '16-bit');
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'data') return { seconds: size / 2 / sampleRate, sampleRate };
    offset += 8 + size;
  }
  throw new Error('no data chunk');
}

describe('outbound calls over HTTP', () => {
  let voice: VoiceFixture;
  before(async () => {
    voice = await VoiceFixture.start();
  });
  after(() => voice.close());

  it('answers, says text, hangs up: every event in order, in the documented shape, and the history says why it ended', async () => {
    const created = await voice.server.request('POST', '/calls/1/calls', {
      body: {
        endpoint: { type: 'PHONE', phoneNumber: '+41793026727' },
        from: '41790000000',
        callsConfigurationId: CONFIGURATION,
        customData: { order: '42' },
        externalId: 'ext-1',
      },
    });
    assert.equal(created.status, 201);
    const call = created.json();
    assert.deepEqual([call.state, call.direction, call.to, call.from, call.callsConfigurationId, call.customData, call.externalId], [
      'CALLING',
      'OUTBOUND',
      '41793026727',
      '41790000000',
      CONFIGURATION,
      { order: '42' },
      'ext-1',
    ]);
    assert.deepEqual(call.endpoint, { type: 'PHONE', phoneNumber: '+41793026727' }, 'the endpoint as given');
    assert.match(call.startTime, TIMESTAMP);

    const established = await voice.event(call.id, 'CALL_ESTABLISHED');
    assert.deepEqual(voice.types(call.id), ['CALL_STARTED', 'CALL_RINGING', 'CALL_ESTABLISHED']);
    assert.deepEqual(Object.keys(established).sort(), ['callId', 'callsConfigurationId', 'properties', 'timestamp', 'type']);
    assert.equal(established.properties?.call.state, 'ESTABLISHED');
    assert.match(established.properties?.call.answerTime, TIMESTAMP);
    assert.equal(typeof established.properties?.apiBaseUrl, 'string');

    const said = await voice.action(call.id, 'say', { text: 'Your code is 1 2 3 4', language: 'en', customData: { step: 'otp' } });
    assert.deepEqual([said.status, said.json], [200, { status: 'PENDING' }]);
    const finished = await voice.event(call.id, 'SAY_FINISHED');
    assert.equal(finished.properties?.playedCompletely, true);
    assert.deepEqual(finished.properties?.customData, { step: 'otp' });
    assert.ok(finished.properties!.duration > 500, `duration ${finished.properties!.duration} ms`);

    const phone = await voice.server.request('GET', '/sandbox/1/phones/41793026727/messages');
    assert.deepEqual(
      phone.json().messages.filter((m: { channel: string }) => m.channel === 'VOICE').map((m: { text: string; from: string }) => [m.text, m.from]),
      [['Your code is 1 2 3 4', '41790000000']],
    );

    const hungUp = await voice.action(call.id, 'hangup', {});
    assert.equal(hungUp.status, 200);
    assert.deepEqual([hungUp.json.state, hungUp.json.id], ['FINISHED', call.id]);
    const ended = await voice.event(call.id, 'CALL_FINISHED');
    assert.deepEqual(voice.types(call.id), ['CALL_STARTED', 'CALL_RINGING', 'CALL_ESTABLISHED', 'SAY_FINISHED', 'CALL_FINISHED']);
    const log = ended.properties?.callLog;
    assert.deepEqual([log.callId, log.state, log.hangupSource, log.errorCode.id, log.errorCode.name], [call.id, 'FINISHED', 'API', 10000, 'NORMAL_HANGUP']);
    assert.equal(typeof log.errorCode.description, 'string');
    assert.equal(typeof log.duration, 'number');

    const history = await voice.server.request('GET', `/calls/1/calls/${call.id}/history`);
    assert.equal(history.status, 200);
    assert.deepEqual([history.json().callId, history.json().errorCode.name], [call.id, 'NORMAL_HANGUP']);

    const wav = await fetch(`${voice.server.url}/sandbox/1/calls/${call.id}/audio`, { headers: { authorization: `App ${voice.server.apiKey}` } });
    assert.equal(wav.headers.get('content-type'), 'audio/wav');
    const { seconds, sampleRate } = wavSeconds(Buffer.from(await wav.arrayBuffer()));
    assert.ok(sampleRate >= 16_000);
    // The recording starts at the answer: the silence while the speech was synthesized, then the
    // speech; the sandbox at zero latency hangs up within the speech's own length.
    const timeline = (await voice.server.request('GET', `/sandbox/1/calls/${call.id}/timeline`)).json().entries as Array<{ at: string; type: string }>;
    const at = (type: string) => Date.parse(timeline.find((e) => e.type === type)!.at.replace('+0000', 'Z'));
    const silence = (at('SAY') - Date.parse(established.properties?.call.answerTime.replace('+0000', 'Z'))) / 1000;
    const spoken = finished.properties!.duration / 1000;
    assert.ok(Math.abs(seconds - (silence + spoken)) < 0.05, `recording ${seconds} s, silence ${silence} s + speech ${spoken} s`);
  });

  it('calls SIP and WebRTC endpoints as virtual endpoints that answer', async () => {
    for (const endpoint of [
      { type: 'SIP', username: 'alice', sipTrunkId: 'trunk-1', customHeaders: { 'X-Tenant': 'acme' } },
      { type: 'WEBRTC', identity: 'agent-7', displayName: 'Agent 7' },
    ]) {
      const created = await voice.server.request('POST', '/calls/1/calls', { body: { endpoint, from: 'switchboard', callsConfigurationId: CONFIGURATION } });
      assert.equal(created.status, 201, created.text);
      const call = (await voice.event(created.json().id, 'CALL_ESTABLISHED')).properties?.call;
      assert.deepEqual([call.endpoint, call.from], [endpoint, 'switchboard']);
    }
  });

  it('refuses actions the state does not allow, unknown calls and configurations, and hangup codes out of place', async () => {
    const id = await voice.call('41793029012');
    await voice.event(id, 'CALL_RINGING');
    const say = await voice.action(id, 'say', { text: 'hello', language: 'en' });
    assert.equal(say.status, 400);
    assert.ok(say.json.requestError.serviceException.validationErrors.callId);
    const answer = await voice.action(id, 'answer', {});
    assert.equal(answer.status, 400, 'an outbound call is not answered by the API');
    const normal = await voice.action(id, 'hangup', { errorCode: 'NORMAL_HANGUP' });
    assert.deepEqual([normal.status, Object.keys(normal.json.requestError.serviceException.validationErrors)], [400, ['errorCode']]);
    const cancelled = await voice.action(id, 'hangup', { errorCode: 'CANCELLED' });
    assert.deepEqual([cancelled.status, cancelled.json.state], [200, 'CANCELLED']);
    assert.equal((await voice.action(id, 'hangup', {})).status, 400, 'an ended call cannot be hung up again');

    assert.equal((await voice.action('no-such-call', 'say', { text: 'x', language: 'en' })).status, 404);
    assert.equal((await voice.server.request('GET', '/calls/1/calls/no-such-call')).status, 404);
    const unknownConfiguration = await voice.server.request('POST', '/calls/1/calls', {
      body: { endpoint: { type: 'PHONE', phoneNumber: '41793026727' }, callsConfigurationId: 'nope' },
    });
    assert.equal(unknownConfiguration.status, 404);
    assert.deepEqual(Object.keys(unknownConfiguration.json()), ['requestError']);
  });

  it('lists live calls and the history with filters and paging', async () => {
    const live = await voice.call('41793029012', { connectTimeout: 60 });
    const ended = await voice.call('41793029011');
    await voice.event(ended, 'CALL_FAILED');
    const page = await eventually(async () => {
      const response = (await voice.server.request('GET', '/calls/1/calls?status=RINGING&size=100')).json();
      return response.results.some((c: { id: string }) => c.id === live) ? response : undefined;
    });
    assert.ok(page.results.every((c: { state: string }) => c.state === 'RINGING'));
    assert.deepEqual(Object.keys(page.paging).sort(), ['page', 'size', 'totalPages', 'totalResults']);
    const history = (await voice.server.request('GET', '/calls/1/calls/history?status=BUSY&to=41793029011')).json();
    assert.ok(history.results.some((c: { callId: string }) => c.callId === ended));
    assert.ok(history.results.every((c: { state: string; errorCode: { name: string } }) => c.state === 'BUSY' && c.errorCode.name === 'BUSY'));
    const none = (await voice.server.request('GET', '/calls/1/calls/history?dialogId=d1')).json();
    assert.deepEqual([none.results, none.paging.totalResults], [[], 0]);
    assert.equal((await voice.server.request('GET', '/calls/1/calls/history?startTimeAfter=yesterday')).status, 400);
    await voice.action(live, 'hangup', {});
  });
});
