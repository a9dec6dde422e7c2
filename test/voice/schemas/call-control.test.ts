import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HANGUP_ERROR_CODES } from '../../../src/voice/machine/call-errors.js';
import { assertAccepted, assertRefused, startCallsApp, validationErrors, type CallsApp } from './calls-app.js';

let calls: CallsApp;
before(async () => {
  calls = await startCallsApp();
});
after(() => calls.close());

const post = (action: string, body?: unknown, callId = 'call-1') => calls.request('POST', `/calls/1/calls/${callId}/${action}`, body);

describe('POST /calls/1/calls/{callId}/answer', () => {
  it('answers with `{}`, and reads custom data and a recording with MONO channels by default', async () => {
    const bare = await post('answer', {});
    assertAccepted(bare);
    assert.deepEqual(bare.body, { kind: 'answer' });
    const full = await post('answer', { customData: { agent: 'bot' }, recording: { recordingType: 'AUDIO', filePrefix: 'support_line-1', customData: { q: '1' } } });
    assertAccepted(full);
    assert.deepEqual(full.body, {
      kind: 'answer',
      customData: { agent: 'bot' },
      recording: { recordingType: 'AUDIO', channels: 'MONO', filePrefix: 'support_line-1', customData: { q: '1' } },
    });
  });

  it('requires a body', async () => {
    assertRefused(await post('answer'), 'body', 'must be object');
  });

  it('refuses a recording outside its bounds, naming the field', async () => {
    const cases: Array<[object, string]> = [
      [{ channels: 'MONO' }, 'recording.recordingType'],
      [{ recordingType: 'SCREEN' }, 'recording.recordingType'],
      [{ recordingType: 'AUDIO', channels: 'SURROUND' }, 'recording.channels'],
      [{ recordingType: 'AUDIO', filePrefix: '' }, 'recording.filePrefix'],
      [{ recordingType: 'AUDIO', filePrefix: 'p'.repeat(215) }, 'recording.filePrefix'],
      [{ recordingType: 'AUDIO', filePrefix: '../etc' }, 'recording.filePrefix'],
      [{ recordingType: 'AUDIO', customData: { ['k'.repeat(129)]: 'v' } }, 'recording.customData'],
    ];
    for (const [recording, property] of cases) assertRefused(await post('answer', { recording }), property);
    assertAccepted(await post('answer', { recording: { recordingType: 'AUDIO_AND_VIDEO', channels: 'STEREO', filePrefix: 'p'.repeat(214) } }));
  });

  it('refuses bad custom data', async () => {
    assertRefused(await post('answer', { customData: 'agent=bot' }), 'customData', 'must be object');
    assertRefused(await post('answer', { customData: { k: null } }), 'customData.k', 'must be string');
  });
});

describe('POST /calls/1/calls/{callId}/pre-answer', () => {
  it('does not ring unless asked, with or without a body', async () => {
    for (const body of [undefined, {}]) {
      const answer = await post('pre-answer', body);
      assertAccepted(answer);
      assert.deepEqual(answer.body, { kind: 'pre-answer', ringing: false });
    }
    const ringing = await post('pre-answer', { ringing: true, customData: { early: 'media' } });
    assertAccepted(ringing);
    assert.deepEqual(ringing.body, { kind: 'pre-answer', ringing: true, customData: { early: 'media' } });
  });

  it('refuses a ringing flag that is not a boolean', async () => {
    assertRefused(await post('pre-answer', { ringing: 'yes' }), 'ringing', 'must be boolean');
    assertRefused(await post('pre-answer', { ringing: 1 }), 'ringing', 'must be boolean');
  });
});

describe('POST /calls/1/calls/{callId}/hangup', () => {
  it('hangs up without a reason when there is no body or no errorCode', async () => {
    for (const body of [undefined, {}]) {
      const answer = await post('hangup', body);
      assertAccepted(answer);
      assert.deepEqual(answer.body, { kind: 'hangup' });
    }
  });

  it('takes each hangup error code', async () => {
    for (const errorCode of HANGUP_ERROR_CODES) {
      const answer = await post('hangup', { errorCode });
      assertAccepted(answer);
      assert.deepEqual(answer.body, { kind: 'hangup', errorCode });
    }
  });

  it('refuses other codes, names in another case, and ids', async () => {
    for (const errorCode of ['HUMAN_DETECTED', 'MAX_DURATION_REACHED', 'normal_hangup', '', 'UNKNOWN']) {
      assertRefused(await post('hangup', { errorCode }), 'errorCode', /^must be one of \[NORMAL_HANGUP, MACHINE_DETECTED, NO_ANSWER/);
    }
    assertRefused(await post('hangup', { errorCode: 10000 }), 'errorCode');
  });
});

describe('POST /calls/1/calls/{callId}/send-dtmf', () => {
  it('reads the keys to send with custom data', async () => {
    const answer = await post('send-dtmf', { dtmf: '0123456789*#ABCDw', customData: { step: 'ivr' } });
    assertAccepted(answer);
    assert.deepEqual(answer.body, { kind: 'send-dtmf', dtmf: '0123456789*#ABCDw', customData: { step: 'ivr' } });
  });

  it('refuses no keys, keys that are not DTMF, and more than 255', async () => {
    const cases: Array<[unknown, string | RegExp]> = [
      [undefined, 'must not be null'],
      ['', 'must not be blank'],
      ['12x', /pattern/],
      ['12W', /pattern/],
      ['1 2', /pattern/],
      ['abcd', /pattern/],
      ['1'.repeat(256), 'size must be between 0 and 255'],
      [123, 'must be string'],
    ];
    for (const [dtmf, violation] of cases) assertRefused(await post('send-dtmf', dtmf === undefined ? {} : { dtmf }), 'dtmf', violation);
    assertAccepted(await post('send-dtmf', { dtmf: '1'.repeat(255) }));
  });
});

describe('the {callId} path parameter', () => {
  it('takes ids up to 128 characters and refuses longer ones, naming callId', async () => {
    assertAccepted(await post('hangup', {}, 'c'.repeat(128)));
    const errors = validationErrors(await post('hangup', {}, 'c'.repeat(129)));
    assert.deepEqual(errors, { callId: ['size must be between 0 and 128'] });
    const get = await calls.request('GET', `/calls/1/calls/${'c'.repeat(129)}`);
    assertRefused(get, 'callId');
  });
});
