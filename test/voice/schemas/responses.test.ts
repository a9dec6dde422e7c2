import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCallsApp, type CallsApp } from './calls-app.js';

/** Every field Infobip defines for a Call, with maps of several keys. */
const wireCall = () => ({
  id: 'call-1',
  endpoint: { type: 'SIP', username: 'alice', sipTrunkId: 'trunk-1', customHeaders: { 'X-Tenant': 'acme', 'X-Queue': 'support' } },
  from: '41790000001',
  to: 'alice',
  direction: 'OUTBOUND',
  state: 'ESTABLISHED',
  media: { audio: { muted: false, userMuted: false, deaf: false }, video: { camera: false, screenShare: false, blind: true } },
  startTime: '2025-03-04T10:15:30.000+0000',
  answerTime: '2025-03-04T10:15:35.000+0000',
  endTime: '2025-03-04T10:20:00.000+0000',
  parentCallId: 'parent-1',
  machineDetection: { detectionResult: 'HUMAN', confidenceRating: { HUMAN: 0.96, MACHINE: 0.04, MUSIC: 0 }, customData: { a: '1' } },
  ringDuration: 5,
  callsConfigurationId: 'conf-1',
  platform: { entityId: 'entity', applicationId: 'app' },
  conferenceId: 'conference-1',
  customData: { order: '42', step: 'otp' },
  dialogId: 'dialog-1',
  externalId: 'ext-1',
});

const wireCallLog = () => ({
  callId: 'call-1',
  endpoint: { type: 'PHONE', phoneNumber: '41793026727' },
  from: '41790000001',
  to: '41793026727',
  direction: 'INBOUND',
  state: 'FINISHED',
  startTime: '2025-03-04T10:15:30.000+0000',
  answerTime: '2025-03-04T10:15:35.000+0000',
  endTime: '2025-03-04T10:20:00.000+0000',
  parentCallId: 'parent-1',
  machineDetection: { detectionResult: 'MACHINE', confidenceRating: { MACHINE: 0.97 } },
  ringDuration: 5,
  callsConfigurationIds: ['conf-1'],
  platform: { applicationId: 'app' },
  conferenceIds: [],
  duration: 265,
  hasCameraVideo: false,
  hasScreenshareVideo: false,
  errorCode: { id: 10000, name: 'NORMAL_HANGUP', description: 'The call ended with a hangup by the caller, the callee or the API.' },
  customData: { order: '42' },
  dialogId: 'dialog-1',
  sender: '41790000001',
  hangupSource: 'ENDPOINT',
  externalId: 'ext-1',
});

const wireFile = () => ({
  id: 'file-1',
  name: 'hold-music.mp3',
  fileFormat: 'MP3',
  size: 48_213,
  creationTime: '2025-03-04T10:15:30.000+0000',
  expirationTime: '2025-06-02T10:15:30.000+0000',
  duration: 12,
});

const paging = { page: 0, size: 20, totalPages: 1, totalResults: 1 };

/** Store-side fields a route might pass along by mistake; no answer may carry them. */
const leaks = { accountId: 'acme', pk: 7, network: 'sandbox', nodeId: 'node-a', updatedAt: 1, connectTimeoutMs: 30_000 };

describe('Calls response schemas', () => {
  let calls: CallsApp;
  before(async () => {
    calls = await startCallsApp();
  });
  after(() => calls.close());

  async function serialize(name: string, value: unknown): Promise<{ status: number; body: any }> {
    calls.answer = value;
    return calls.request('GET', `/test/${name}`);
  }

  it('serializes every Call field, open maps included, and nothing else', async () => {
    const internal = {
      ...wireCall(),
      ...leaks,
      endpoint: { ...wireCall().endpoint, trunkPassword: 'secret' },
      media: { ...wireCall().media, queue: [{ id: 1 }], nextId: 2 },
      machineDetection: { ...wireCall().machineDetection, raw: 'x' },
      platform: { ...wireCall().platform, accountId: 'acme' },
    };
    const answer = await serialize('call', internal);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, wireCall());
  });

  it('serializes every CallLog field and nothing else', async () => {
    const answer = await serialize('call-log', { ...wireCallLog(), ...leaks, errorCode: { ...wireCallLog().errorCode, groupId: 0 } });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, wireCallLog());
  });

  it('serializes pages of calls and call logs with their paging', async () => {
    const callsPage = await serialize('calls', { results: [{ ...wireCall(), ...leaks }], paging: { ...paging, cursor: 'x' }, total: 1 });
    assert.deepEqual(callsPage.body, { results: [wireCall()], paging });
    const logsPage = await serialize('call-logs', { results: [wireCallLog()], paging });
    assert.deepEqual(logsPage.body, { results: [wireCallLog()], paging });
  });

  it('serializes a configuration as {id, name} only', async () => {
    const one = await serialize('configuration', { id: 'conf-1', name: 'Support', accountId: 'acme', createdAt: 1 });
    assert.deepEqual(one.body, { id: 'conf-1', name: 'Support' });
    const page = await serialize('configurations', { results: [{ id: 'conf-1', accountId: 'acme' }], paging });
    assert.deepEqual(page.body, { results: [{ id: 'conf-1' }], paging });
  });

  it('serializes a file with Infobip field names only', async () => {
    const one = await serialize('file', { ...wireFile(), accountId: 'acme', origin: 'upload', durationMs: 12_000 });
    assert.deepEqual(one.body, wireFile());
    const page = await serialize('files', { results: [wireFile()], paging });
    assert.deepEqual(page.body, { results: [wireFile()], paging });
  });

  it('serializes an action answer as {status}', async () => {
    const answer = await serialize('action', { status: 'PENDING', callId: 'call-1' });
    assert.deepEqual(answer.body, { status: 'PENDING' });
  });

  it('refuses to answer without a required field rather than send a body SDKs cannot read', async () => {
    const cases: Array<[string, unknown]> = [
      ['call', { id: 'call-1' }],
      ['call-log', { callId: 'call-1' }],
      ['configuration', { name: 'no id' }],
      ['file', { id: 'f', name: 'a.wav' }],
      ['action', {}],
      ['calls', { results: [] }],
    ];
    for (const [name, value] of cases) {
      const answer = await serialize(name, value);
      assert.equal(answer.status, 500, `${name}: ${JSON.stringify(answer.body)}`);
    }
  });
});
