import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CALL_LANGUAGES } from '../../../src/voice/schemas/languages.js';
import { assertAccepted, assertRefused, startCallsApp, withField, type CallsApp } from './calls-app.js';

type Case = { name: string; at: string; value: unknown; property: string; violation?: string | RegExp };
type Edge = { at: string; value: unknown };

let calls: CallsApp;
before(async () => {
  calls = await startCallsApp();
});
after(() => calls.close());

const post = (action: string, body?: unknown) => calls.request('POST', `/calls/1/calls/call-1/${action}`, body);

function boundCases(action: string, valid: () => object, refused: Case[], accepted: Edge[]): void {
  for (const c of refused) {
    it(`refuses ${c.name}, naming ${c.property}`, async () => {
      assertRefused(await post(action, withField(valid(), c.at, c.value as never)), c.property, c.violation);
    });
  }
  for (const c of accepted) {
    it(`accepts ${c.at} = ${JSON.stringify(c.value).slice(0, 60)}`, async () => {
      assertAccepted(await post(action, withField(valid(), c.at, c.value as never)));
    });
  }
}

const customDataCases = (prefix = ''): Case[] => [
  { name: 'customData of 51 keys', at: `${prefix}customData`, value: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), property: `${prefix}customData` },
  { name: 'a customData key of 129', at: `${prefix}customData`, value: { ['k'.repeat(129)]: 'v' }, property: `${prefix}customData`, violation: 'key size must be between 1 and 128' },
  { name: 'a customData value of 1025', at: `${prefix}customData`, value: { k: 'v'.repeat(1025) }, property: `${prefix}customData.k` },
];

describe('POST /calls/1/calls/{callId}/say', () => {
  const fullSay = () => ({
    text: 'Hello <break time="1s"/> world',
    language: 'en-gb',
    speechRate: 1.5,
    loopCount: 3,
    preferences: { voiceGender: 'FEMALE', voiceName: 'Joanna' },
    stopOn: { type: 'DTMF', terminator: '#*1' },
    customData: { step: 'greeting' },
  });

  it('reads a full body into a SAY action that also updates the call custom data', async () => {
    const answer = await post('say', fullSay());
    assertAccepted(answer);
    assert.deepEqual(answer.body, {
      kind: 'say',
      action: {
        type: 'SAY',
        source: { kind: 'speech', text: 'Hello <break time="1s"/> world', language: 'en-gb', speechRate: 1.5, voiceGender: 'FEMALE', voiceName: 'Joanna' },
        loopCount: 3,
        stopOn: { terminator: '#*1' },
        customData: { step: 'greeting' },
      },
      customData: { step: 'greeting' },
    });
  });

  it('defaults speech rate and loop count to 1 and plays without stopping on keys', async () => {
    const answer = await post('say', { text: 'Hi', language: 'en' });
    assertAccepted(answer);
    assert.deepEqual(answer.body, { kind: 'say', action: { type: 'SAY', source: { kind: 'speech', text: 'Hi', language: 'en', speechRate: 1 }, loopCount: 1 } });
  });

  it('stops on any key when stopOn has no terminator, or an empty one', async () => {
    for (const stopOn of [{ type: 'DTMF' }, { type: 'DTMF', terminator: '' }]) {
      const answer = await post('say', { text: 'Hi', language: 'en', stopOn });
      assertAccepted(answer);
      assert.deepEqual(answer.body.action.stopOn, {});
    }
  });

  it('refuses a NUL character in the text, naming it', async () => {
    assertRefused(await post('say', { text: 'a\u0000b', language: 'en' }), 'text', /NUL/);
  });

  it('accepts each of the 80 languages and nothing else', async () => {
    for (const language of CALL_LANGUAGES) assertAccepted(await post('say', { text: 'Hi', language }));
    for (const language of ['EN', 'en_gb', 'pt_br', 'ar-xa', 'xx', '']) {
      assertRefused(await post('say', { text: 'Hi', language }), 'language', /^must be one of \[ar, ar-ma, ar_xa/);
    }
  });

  boundCases(
    'say',
    fullSay,
    [
      { name: 'no text', at: 'text', value: undefined, property: 'text', violation: 'must not be null' },
      { name: 'empty text', at: 'text', value: '', property: 'text', violation: 'must not be blank' },
      { name: 'blank text', at: 'text', value: ' \n\t ', property: 'text', violation: 'must not be blank' },
      { name: 'text of 4001', at: 'text', value: 't'.repeat(4001), property: 'text', violation: 'size must be between 0 and 4000' },
      { name: 'text not a string', at: 'text', value: 42, property: 'text', violation: 'must be string' },
      { name: 'no language', at: 'language', value: undefined, property: 'language', violation: 'must not be null' },
      { name: 'speechRate 0.49', at: 'speechRate', value: 0.49, property: 'speechRate', violation: 'must be greater than or equal to 0.5' },
      { name: 'speechRate 2.01', at: 'speechRate', value: 2.01, property: 'speechRate', violation: 'must be less than or equal to 2' },
      { name: 'speechRate as a string', at: 'speechRate', value: '1', property: 'speechRate', violation: 'must be number' },
      { name: 'loopCount 0', at: 'loopCount', value: 0, property: 'loopCount', violation: 'must be greater than or equal to 1' },
      { name: 'loopCount 101', at: 'loopCount', value: 101, property: 'loopCount', violation: 'must be less than or equal to 100' },
      { name: 'loopCount fractional', at: 'loopCount', value: 1.5, property: 'loopCount', violation: 'must be integer' },
      { name: 'unknown voiceGender', at: 'preferences.voiceGender', value: 'OTHER', property: 'preferences.voiceGender', violation: 'must be one of [FEMALE, MALE]' },
      { name: 'empty voiceName', at: 'preferences.voiceName', value: '', property: 'preferences.voiceName', violation: 'must not be blank' },
      { name: 'blank voiceName', at: 'preferences.voiceName', value: '   ', property: 'preferences.voiceName', violation: 'must not be blank' },
      { name: 'voiceName of 129', at: 'preferences.voiceName', value: 'v'.repeat(129), property: 'preferences.voiceName' },
      { name: 'stopOn without type', at: 'stopOn', value: { terminator: '1' }, property: 'stopOn.type', violation: 'must not be null' },
      { name: 'stopOn of an unknown type', at: 'stopOn.type', value: 'SPEECH', property: 'stopOn.type', violation: 'must be one of [DTMF]' },
      { name: 'a terminator of letters', at: 'stopOn.terminator', value: '1x', property: 'stopOn.terminator', violation: /pattern/ },
      { name: 'a lowercase terminator', at: 'stopOn.terminator', value: 'a', property: 'stopOn.terminator' },
      { name: 'a terminator of 17 keys', at: 'stopOn.terminator', value: '0123456789*#ABCD1', property: 'stopOn.terminator' },
      ...customDataCases(),
    ],
    [
      { at: 'speechRate', value: 0.5 },
      { at: 'speechRate', value: 2 },
      { at: 'loopCount', value: 1 },
      { at: 'loopCount', value: 100 },
      { at: 'text', value: 't'.repeat(4000) },
      { at: 'preferences.voiceName', value: 'Aarohi (neural)' },
      { at: 'preferences.voiceName', value: 'v'.repeat(128) },
      { at: 'stopOn.terminator', value: '0123456789*#ABCD' },
    ],
  );
});

describe('POST /calls/1/calls/{callId}/play', () => {
  const fullPlay = () => ({
    content: { type: 'FILE', fileId: 'file-1' },
    loopCount: 2,
    timeout: 5000,
    offset: 0,
    stopOn: { type: 'DTMF' },
    customData: { step: 'music' },
  });

  it('reads a full body into a PLAY action', async () => {
    const answer = await post('play', fullPlay());
    assertAccepted(answer);
    assert.deepEqual(answer.body, {
      kind: 'play',
      action: { type: 'PLAY', source: { kind: 'file', fileId: 'file-1' }, loopCount: 2, timeoutMs: 5000, offsetMs: 0, stopOn: {}, customData: { step: 'music' } },
      customData: { step: 'music' },
    });
  });

  it('reads URL and TEXT content', async () => {
    const url = await post('play', { content: { type: 'URL', fileUrl: 'https://media.example.com/hold.mp3' } });
    assertAccepted(url);
    assert.deepEqual(url.body.action, { type: 'PLAY', source: { kind: 'url', url: 'https://media.example.com/hold.mp3' }, loopCount: 1 });
    const text = await post('play', { content: { type: 'TEXT', text: 'Welcome', language: 'de', speechRate: 0.8, preferences: { voiceGender: 'MALE' } } });
    assertAccepted(text);
    assert.deepEqual(text.body.action.source, { kind: 'speech', text: 'Welcome', language: 'de', speechRate: 0.8, voiceGender: 'MALE' });
  });

  it('plays URLs on local hosts over http', async () => {
    for (const fileUrl of ['http://localhost:8080/a.wav', 'http://127.0.0.1/a.wav', 'http://[::1]:9000/beep.mp3']) {
      const answer = await post('play', { content: { type: 'URL', fileUrl } });
      assertAccepted(answer);
      assert.equal(answer.body.action.source.url, fileUrl);
    }
  });

  it('refuses URLs that are not plain absolute http(s) URLs', async () => {
    const cases: Array<[string, string | RegExp]> = [
      ['ftp://media.example.com/a.wav', 'must be an absolute http or https URL'],
      ['file:///etc/passwd', 'must be an absolute http or https URL'],
      ['javascript:alert(1)', 'must be an absolute http or https URL'],
      ['/relative/a.wav', 'must be an absolute http or https URL'],
      ['https://user:secret@media.example.com/a.wav', 'must not contain credentials'],
      ['https://media.example.com/a b.wav', 'must not contain whitespace'],
      ['', 'must not be blank'],
      [`https://media.example.com/${'a'.repeat(2048)}`, 'size must be between 0 and 2048'],
    ];
    for (const [fileUrl, violation] of cases) {
      assertRefused(await post('play', { content: { type: 'URL', fileUrl } }), 'content.fileUrl', violation);
    }
  });

  it('refuses RECORDING and TTY content, which Switchboard does not play, naming content.type', async () => {
    for (const content of [{ type: 'RECORDING', fileId: 'rec-1' }, { type: 'TTY', text: 'hello' }]) {
      assertRefused(await post('play', { content }), 'content.type', `${content.type} content is not supported; use FILE, URL or TEXT`);
    }
  });

  boundCases(
    'play',
    fullPlay,
    [
      { name: 'no content', at: 'content', value: undefined, property: 'content', violation: 'must not be null' },
      { name: 'content without type', at: 'content', value: { fileId: 'f' }, property: 'content.type', violation: 'must not be null' },
      { name: 'content of an unknown type', at: 'content', value: { type: 'VIDEO', fileId: 'f' }, property: 'content.type', violation: 'must be one of [FILE, URL, RECORDING, TEXT, TTY]' },
      { name: 'FILE without fileId', at: 'content', value: { type: 'FILE' }, property: 'content.fileId', violation: 'must not be null' },
      { name: 'FILE with an empty fileId', at: 'content', value: { type: 'FILE', fileId: '' }, property: 'content.fileId', violation: 'must not be blank' },
      { name: 'FILE with a fileId of 129', at: 'content', value: { type: 'FILE', fileId: 'f'.repeat(129) }, property: 'content.fileId' },
      { name: 'URL without fileUrl', at: 'content', value: { type: 'URL' }, property: 'content.fileUrl', violation: 'must not be null' },
      { name: 'TEXT without language', at: 'content', value: { type: 'TEXT', text: 'hi' }, property: 'content.language', violation: 'must not be null' },
      { name: 'TEXT without text', at: 'content', value: { type: 'TEXT', language: 'en' }, property: 'content.text', violation: 'must not be null' },
      { name: 'TEXT with blank text', at: 'content', value: { type: 'TEXT', text: '  ', language: 'en' }, property: 'content.text', violation: 'must not be blank' },
      { name: 'TEXT in an unknown language', at: 'content', value: { type: 'TEXT', text: 'hi', language: 'klingon' }, property: 'content.language' },
      { name: 'TEXT speechRate 2.5', at: 'content', value: { type: 'TEXT', text: 'hi', language: 'en', speechRate: 2.5 }, property: 'content.speechRate' },
      { name: 'TEXT with a blank voiceName', at: 'content', value: { type: 'TEXT', text: 'hi', language: 'en', preferences: { voiceName: ' ' } }, property: 'content.preferences.voiceName' },
      { name: 'timeout 0', at: 'timeout', value: 0, property: 'timeout', violation: 'must be greater than or equal to 1' },
      { name: 'a negative timeout', at: 'timeout', value: -1000, property: 'timeout' },
      { name: 'timeout past 8 hours', at: 'timeout', value: 28_800_001, property: 'timeout', violation: 'must be less than or equal to 28800000' },
      { name: 'a negative offset', at: 'offset', value: -1, property: 'offset', violation: 'must be greater than or equal to 0' },
      { name: 'offset past 8 hours', at: 'offset', value: 28_800_001, property: 'offset' },
      { name: 'offset as a string', at: 'offset', value: '100', property: 'offset', violation: 'must be integer' },
      { name: 'loopCount 0', at: 'loopCount', value: 0, property: 'loopCount' },
      { name: 'loopCount 101', at: 'loopCount', value: 101, property: 'loopCount' },
      { name: 'a terminator with a letter past D', at: 'stopOn', value: { type: 'DTMF', terminator: 'E' }, property: 'stopOn.terminator' },
      ...customDataCases(),
    ],
    [
      { at: 'timeout', value: 1 },
      { at: 'timeout', value: 28_800_000 },
      { at: 'offset', value: 28_800_000 },
      { at: 'loopCount', value: 100 },
      { at: 'content.fileId', value: 'f'.repeat(128) },
    ],
  );
});

describe('POST /calls/1/calls/{callId}/capture/dtmf', () => {
  const fullCapture = () => ({
    maxLength: 4,
    timeout: 5000,
    terminator: '#',
    digitTimeout: 2000,
    playContent: { type: 'TEXT', text: 'Enter your PIN', language: 'en' },
    customData: { step: 'pin' },
  });

  it('reads a full body into a capture with its prompt', async () => {
    const answer = await post('capture/dtmf', fullCapture());
    assertAccepted(answer);
    assert.deepEqual(answer.body, {
      kind: 'capture-dtmf',
      capture: { maxLength: 4, timeoutMs: 5000, digitTimeoutMs: 2000, terminator: '#', customData: { step: 'pin' } },
      prompt: { type: 'PLAY', source: { kind: 'speech', text: 'Enter your PIN', language: 'en', speechRate: 1 }, loopCount: 1 },
      customData: { step: 'pin' },
    });
  });

  it('waits `timeout` between digits when digitTimeout is absent, and plays no prompt without playContent', async () => {
    const answer = await post('capture/dtmf', { maxLength: 1, timeout: 1 });
    assertAccepted(answer);
    assert.deepEqual(answer.body, { kind: 'capture-dtmf', capture: { maxLength: 1, timeoutMs: 1, digitTimeoutMs: 1 } });
  });

  boundCases(
    'capture/dtmf',
    fullCapture,
    [
      { name: 'no maxLength', at: 'maxLength', value: undefined, property: 'maxLength', violation: 'must not be null' },
      { name: 'maxLength 0', at: 'maxLength', value: 0, property: 'maxLength', violation: 'must be greater than or equal to 1' },
      { name: 'maxLength 256', at: 'maxLength', value: 256, property: 'maxLength', violation: 'must be less than or equal to 255' },
      { name: 'no timeout', at: 'timeout', value: undefined, property: 'timeout', violation: 'must not be null' },
      { name: 'timeout 0', at: 'timeout', value: 0, property: 'timeout' },
      { name: 'a negative timeout', at: 'timeout', value: -5, property: 'timeout' },
      { name: 'timeout past an hour', at: 'timeout', value: 3_600_001, property: 'timeout', violation: 'must be less than or equal to 3600000' },
      { name: 'digitTimeout 0', at: 'digitTimeout', value: 0, property: 'digitTimeout' },
      { name: 'digitTimeout past an hour', at: 'digitTimeout', value: 3_600_001, property: 'digitTimeout' },
      { name: 'a terminator of two keys', at: 'terminator', value: '##', property: 'terminator', violation: /pattern/ },
      { name: 'an empty terminator', at: 'terminator', value: '', property: 'terminator' },
      { name: 'a terminator that is no key', at: 'terminator', value: 'x', property: 'terminator' },
      { name: 'RECORDING prompt', at: 'playContent', value: { type: 'RECORDING', fileId: 'r' }, property: 'playContent.type', violation: /not supported/ },
      { name: 'a prompt URL of another scheme', at: 'playContent', value: { type: 'URL', fileUrl: 'ftp://x/a.wav' }, property: 'playContent.fileUrl' },
      { name: 'a prompt without its text', at: 'playContent', value: { type: 'TEXT', language: 'en' }, property: 'playContent.text' },
      ...customDataCases(),
    ],
    [
      { at: 'maxLength', value: 255 },
      { at: 'timeout', value: 3_600_000 },
      { at: 'digitTimeout', value: 1 },
      { at: 'digitTimeout', value: 3_600_000 },
      { at: 'terminator', value: 'D' },
      { at: 'playContent', value: { type: 'FILE', fileId: 'prompt-1' } },
    ],
  );
});

describe('POST /calls/1/calls/{callId}/stop-play', () => {
  it('takes no body, an empty body, or custom data', async () => {
    for (const body of [undefined, {}]) {
      const answer = await post('stop-play', body);
      assertAccepted(answer);
      assert.deepEqual(answer.body, { kind: 'stop-play' });
    }
    const withData = await post('stop-play', { customData: { reason: 'caller pressed 0' } });
    assertAccepted(withData);
    assert.deepEqual(withData.body, { kind: 'stop-play', customData: { reason: 'caller pressed 0' } });
  });

  it('refuses bad custom data', async () => {
    assertRefused(await post('stop-play', { customData: { k: 5 } }), 'customData.k', 'must be string');
    assertRefused(await post('stop-play', { customData: { ['k'.repeat(129)]: 'v' } }), 'customData');
  });
});
