import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccepted, assertRefused, DEFAULTS, startCallsApp, withField, type CallsApp } from './calls-app.js';

const fullBody = () => ({
  endpoint: { type: 'PHONE', phoneNumber: '+41793026727' },
  callsConfigurationId: 'conf-1',
  from: '+41790000001',
  fromDisplayName: 'Acme',
  connectTimeout: 20,
  maxDuration: 600,
  recording: { recordingType: 'AUDIO', channels: 'STEREO', filePrefix: 'rec_1-a', customData: { k: 'v' } },
  machineDetection: { enabled: true, messageDetectionTimeout: 10, detectionTime: 3.5 },
  customData: { order: '42' },
  platform: { entityId: 'entity', applicationId: 'app' },
  parentCallId: 'parent-1',
  externalId: 'ext-1',
});

const minimalBody = (endpoint: object = { type: 'PHONE', phoneNumber: '41793026727' }) => ({ endpoint, callsConfigurationId: 'conf-1' });

const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));

describe('POST /calls/1/calls', () => {
  let calls: CallsApp;
  before(async () => {
    calls = await startCallsApp();
  });
  after(() => calls.close());
  const create = (body: unknown) => calls.request('POST', '/calls/1/calls', body);

  it('reads a full body into the call to create', async () => {
    const answer = await create({ ...fullBody(), unknownField: 'ignored' });
    assertAccepted(answer);
    assert.deepEqual(answer.body, {
      configurationId: 'conf-1',
      endpoint: { type: 'PHONE', phoneNumber: '+41793026727' },
      from: '41790000001',
      to: '41793026727',
      fromDisplayName: 'Acme',
      connectTimeoutMs: 20_000,
      maxDurationMs: 600_000,
      customData: { order: '42' },
      externalId: 'ext-1',
      parentCallId: 'parent-1',
      platform: { entityId: 'entity', applicationId: 'app' },
      machineDetection: { enabled: true, messageDetectionTimeout: 10, detectionTime: 3.5 },
      recording: { recordingType: 'AUDIO', channels: 'STEREO', filePrefix: 'rec_1-a', customData: { k: 'v' } },
    });
  });

  it('fills what a minimal body leaves out: anonymous caller, the server defaults, MONO recording', async () => {
    const answer = await create({ ...minimalBody(), recording: { recordingType: 'AUDIO_AND_VIDEO' }, parentCallId: '', externalId: '' });
    assertAccepted(answer);
    assert.deepEqual(answer.body, {
      configurationId: 'conf-1',
      endpoint: { type: 'PHONE', phoneNumber: '41793026727' },
      from: 'anonymous',
      to: '41793026727',
      connectTimeoutMs: DEFAULTS.connectTimeoutMs,
      maxDurationMs: DEFAULTS.maxDurationMs,
      recording: { recordingType: 'AUDIO_AND_VIDEO', channels: 'MONO' },
    });
  });

  it('reads each endpoint type, keeping only the fields of that type', async () => {
    const cases = [
      {
        endpoint: { type: 'SIP', username: 'alice', sipTrunkId: 'trunk-1', customHeaders: { 'X-Tenant': 'a' }, phoneNumber: 'not read', identity: 'dropped' },
        expected: { endpoint: { type: 'SIP', username: 'alice', sipTrunkId: 'trunk-1', customHeaders: { 'X-Tenant': 'a' } }, to: 'alice' },
      },
      {
        endpoint: { type: 'WEBRTC', identity: 'agent-7', displayName: 'Agent 7' },
        expected: { endpoint: { type: 'WEBRTC', identity: 'agent-7', displayName: 'Agent 7' }, to: 'agent-7' },
      },
      {
        endpoint: { type: 'WEBSOCKET', websocketEndpointConfigId: 'ws-1', identifier: 'bot' },
        expected: { endpoint: { type: 'WEBSOCKET', websocketEndpointConfigId: 'ws-1', identifier: 'bot' }, to: 'ws-1' },
      },
      { endpoint: { type: 'WHATSAPP', phoneNumber: '385981234567' }, expected: { endpoint: { type: 'WHATSAPP', phoneNumber: '385981234567' }, to: '385981234567' } },
    ];
    for (const { endpoint, expected } of cases) {
      const answer = await create(minimalBody(endpoint));
      assertAccepted(answer);
      assert.deepEqual({ endpoint: answer.body.endpoint, to: answer.body.to }, expected, endpoint.type);
    }
  });

  it('takes any caller text towards SIP and WebRTC, an E.164 caller towards phone numbers', async () => {
    const sip = await create({ ...minimalBody({ type: 'SIP', username: 'bob', sipTrunkId: 't' }), from: 'sip:alice@example.com' });
    assertAccepted(sip);
    assert.equal(sip.body.from, 'sip:alice@example.com');
    const viber = await create({ ...minimalBody({ type: 'VIBER', phoneNumber: '41793026727' }), from: '+41790000002' });
    assertAccepted(viber);
    assert.equal(viber.body.from, '41790000002');
    assertRefused(await create({ ...minimalBody(), from: 'ACME' }), 'from', /E\.164/);
    assertRefused(await create({ ...minimalBody({ type: 'WHATSAPP', phoneNumber: '41793026727' }), from: 'shop' }), 'from', /E\.164/);
    assertRefused(await create(minimalBody({ type: 'VIBER', phoneNumber: '41793026727' })), 'from', 'must not be null for VIBER endpoints');
  });

  const refused: Array<{ name: string; at: string; value: unknown; property: string; violation?: string | RegExp }> = [
    { name: 'no endpoint', at: 'endpoint', value: undefined, property: 'endpoint', violation: 'must not be null' },
    { name: 'no endpoint type', at: 'endpoint.type', value: undefined, property: 'endpoint.type', violation: 'must not be null' },
    { name: 'unknown endpoint type', at: 'endpoint.type', value: 'FAX', property: 'endpoint.type', violation: /^must be one of \[PHONE, SIP/ },
    { name: 'endpoint type not a string', at: 'endpoint.type', value: 7, property: 'endpoint.type' },
    { name: 'endpoint not an object', at: 'endpoint', value: 'PHONE', property: 'endpoint', violation: 'must be object' },
    { name: 'PHONE without phoneNumber', at: 'endpoint', value: { type: 'PHONE' }, property: 'endpoint.phoneNumber', violation: 'must not be null' },
    { name: 'phoneNumber as a number', at: 'endpoint.phoneNumber', value: 41793026727, property: 'endpoint.phoneNumber', violation: 'must be string' },
    { name: 'phoneNumber of 16 digits', at: 'endpoint.phoneNumber', value: '+1234567890123456', property: 'endpoint.phoneNumber', violation: /E\.164/ },
    { name: 'phoneNumber with letters', at: 'endpoint.phoneNumber', value: '4179302672A', property: 'endpoint.phoneNumber', violation: /E\.164/ },
    { name: 'phoneNumber with spaces', at: 'endpoint.phoneNumber', value: '41 79 302 67 27', property: 'endpoint.phoneNumber' },
    { name: 'phoneNumber of a plus only', at: 'endpoint.phoneNumber', value: '+', property: 'endpoint.phoneNumber' },
    { name: 'phoneNumber with two pluses', at: 'endpoint.phoneNumber', value: '++41793026727', property: 'endpoint.phoneNumber' },
    { name: 'empty phoneNumber', at: 'endpoint.phoneNumber', value: '', property: 'endpoint.phoneNumber' },
    { name: 'SIP without sipTrunkId', at: 'endpoint', value: { type: 'SIP', username: 'a' }, property: 'endpoint.sipTrunkId', violation: 'must not be null' },
    { name: 'SIP without username', at: 'endpoint', value: { type: 'SIP', sipTrunkId: 't' }, property: 'endpoint.username', violation: 'must not be null' },
    { name: 'SIP header of a number', at: 'endpoint', value: { type: 'SIP', username: 'a', sipTrunkId: 't', customHeaders: { 'X-A': 1 } }, property: 'endpoint.customHeaders.X-A', violation: 'must be string' },
    { name: 'SIP header name too long', at: 'endpoint', value: { type: 'SIP', username: 'a', sipTrunkId: 't', customHeaders: { ['X'.repeat(129)]: 'v' } }, property: 'endpoint.customHeaders' },
    { name: 'WEBRTC without identity', at: 'endpoint', value: { type: 'WEBRTC', displayName: 'x' }, property: 'endpoint.identity', violation: 'must not be null' },
    { name: 'WEBRTC identity too long', at: 'endpoint', value: { type: 'WEBRTC', identity: 'i'.repeat(256) }, property: 'endpoint.identity', violation: 'size must be between 0 and 255' },
    { name: 'WEBSOCKET without config id', at: 'endpoint', value: { type: 'WEBSOCKET' }, property: 'endpoint.websocketEndpointConfigId' },
    { name: 'no callsConfigurationId', at: 'callsConfigurationId', value: undefined, property: 'callsConfigurationId', violation: 'must not be null' },
    { name: 'blank callsConfigurationId', at: 'callsConfigurationId', value: '', property: 'callsConfigurationId', violation: 'must not be blank' },
    { name: 'callsConfigurationId of 129', at: 'callsConfigurationId', value: 'c'.repeat(129), property: 'callsConfigurationId', violation: 'size must be between 0 and 128' },
    { name: 'from of 256', at: 'from', value: '1'.repeat(256), property: 'from', violation: 'size must be between 0 and 255' },
    { name: 'from not a string', at: 'from', value: 41790000001, property: 'from', violation: 'must be string' },
    { name: 'connectTimeout 0', at: 'connectTimeout', value: 0, property: 'connectTimeout', violation: 'must be greater than or equal to 1' },
    { name: 'connectTimeout 61', at: 'connectTimeout', value: 61, property: 'connectTimeout', violation: 'must be less than or equal to 60' },
    { name: 'connectTimeout negative', at: 'connectTimeout', value: -5, property: 'connectTimeout' },
    { name: 'connectTimeout fractional', at: 'connectTimeout', value: 1.5, property: 'connectTimeout', violation: 'must be integer' },
    { name: 'connectTimeout as a string', at: 'connectTimeout', value: '10', property: 'connectTimeout', violation: 'must be integer' },
    { name: 'maxDuration 0', at: 'maxDuration', value: 0, property: 'maxDuration', violation: 'must be greater than or equal to 1' },
    { name: 'maxDuration 28801', at: 'maxDuration', value: 28_801, property: 'maxDuration', violation: 'must be less than or equal to 28800' },
    { name: 'machineDetection without enabled', at: 'machineDetection', value: { detectionTime: 2 }, property: 'machineDetection.enabled', violation: 'must not be null' },
    { name: 'machineDetection enabled as text', at: 'machineDetection.enabled', value: 'yes', property: 'machineDetection.enabled', violation: 'must be boolean' },
    { name: 'messageDetectionTimeout -1', at: 'machineDetection.messageDetectionTimeout', value: -1, property: 'machineDetection.messageDetectionTimeout' },
    { name: 'messageDetectionTimeout 61', at: 'machineDetection.messageDetectionTimeout', value: 61, property: 'machineDetection.messageDetectionTimeout' },
    { name: 'detectionTime 0.99', at: 'machineDetection.detectionTime', value: 0.99, property: 'machineDetection.detectionTime', violation: 'must be greater than or equal to 1' },
    { name: 'detectionTime 5.01', at: 'machineDetection.detectionTime', value: 5.01, property: 'machineDetection.detectionTime', violation: 'must be less than or equal to 5' },
    {
      name: 'detectionTime equal to messageDetectionTimeout',
      at: 'machineDetection',
      value: { enabled: true, messageDetectionTimeout: 3, detectionTime: 3 },
      property: 'machineDetection.detectionTime',
      violation: 'must be less than messageDetectionTimeout (3)',
    },
    {
      name: 'detectionTime above messageDetectionTimeout',
      at: 'machineDetection',
      value: { enabled: true, messageDetectionTimeout: 2, detectionTime: 4.5 },
      property: 'machineDetection.detectionTime',
    },
    { name: 'recording without recordingType', at: 'recording', value: { channels: 'MONO' }, property: 'recording.recordingType', violation: 'must not be null' },
    { name: 'unknown recordingType', at: 'recording.recordingType', value: 'VIDEO', property: 'recording.recordingType', violation: 'must be one of [AUDIO, AUDIO_AND_VIDEO]' },
    { name: 'unknown channels', at: 'recording.channels', value: 'QUAD', property: 'recording.channels', violation: 'must be one of [MONO, STEREO]' },
    { name: 'empty filePrefix', at: 'recording.filePrefix', value: '', property: 'recording.filePrefix', violation: 'must not be blank' },
    { name: 'filePrefix of 215', at: 'recording.filePrefix', value: 'p'.repeat(215), property: 'recording.filePrefix', violation: 'size must be between 0 and 214' },
    { name: 'filePrefix with a dot', at: 'recording.filePrefix', value: 'rec.wav', property: 'recording.filePrefix', violation: /pattern/ },
    { name: 'recording customData key too long', at: 'recording.customData', value: { ['k'.repeat(129)]: 'v' }, property: 'recording.customData' },
    { name: '51 customData keys', at: 'customData', value: keys(51), property: 'customData' },
    { name: 'customData key of 129', at: 'customData', value: { ['k'.repeat(129)]: 'v' }, property: 'customData', violation: 'key size must be between 1 and 128' },
    { name: 'empty customData key', at: 'customData', value: { '': 'v' }, property: 'customData', violation: 'key size must be between 1 and 128' },
    { name: 'customData value of 1025', at: 'customData', value: { k: 'v'.repeat(1025) }, property: 'customData.k', violation: 'size must be between 0 and 1024' },
    { name: 'customData value a number', at: 'customData', value: { k: 1 }, property: 'customData.k', violation: 'must be string' },
    { name: 'customData an array', at: 'customData', value: ['a'], property: 'customData', violation: 'must be object' },
    { name: 'entityId of 256', at: 'platform.entityId', value: 'e'.repeat(256), property: 'platform.entityId', violation: 'size must be between 0 and 255' },
    { name: 'applicationId of 256', at: 'platform.applicationId', value: 'a'.repeat(256), property: 'platform.applicationId' },
    { name: 'parentCallId of 129', at: 'parentCallId', value: 'p'.repeat(129), property: 'parentCallId', violation: 'size must be between 0 and 128' },
    { name: 'externalId of 256', at: 'externalId', value: 'x'.repeat(256), property: 'externalId' },
    { name: 'fromDisplayName of 256', at: 'fromDisplayName', value: 'n'.repeat(256), property: 'fromDisplayName' },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}, naming ${c.property}`, async () => {
      assertRefused(await create(withField(fullBody(), c.at, c.value as never)), c.property, c.violation);
    });
  }

  const acceptedAtEdges: Array<{ at: string; value: unknown }> = [
    { at: 'connectTimeout', value: 1 },
    { at: 'connectTimeout', value: 60 },
    { at: 'maxDuration', value: 1 },
    { at: 'maxDuration', value: 28_800 },
    { at: 'machineDetection', value: { enabled: false, messageDetectionTimeout: 0, detectionTime: 5 } },
    { at: 'machineDetection', value: { enabled: true, messageDetectionTimeout: 60, detectionTime: 1 } },
    { at: 'machineDetection', value: { enabled: true, messageDetectionTimeout: 5, detectionTime: 4.99 } },
    { at: 'machineDetection', value: { enabled: true, detectionTime: 5 } },
    { at: 'endpoint.phoneNumber', value: '+123456789012345' },
    { at: 'endpoint.phoneNumber', value: '1' },
    { at: 'recording.filePrefix', value: 'p'.repeat(214) },
    { at: 'customData', value: keys(50) },
    { at: 'customData', value: { ['k'.repeat(128)]: 'v'.repeat(1024) } },
    { at: 'callsConfigurationId', value: 'c'.repeat(128) },
    { at: 'parentCallId', value: 'p'.repeat(128) },
    { at: 'platform', value: { entityId: 'e'.repeat(255), applicationId: '' } },
    { at: 'from', value: '+999999999999999' },
  ];
  for (const c of acceptedAtEdges) {
    it(`accepts ${c.at} = ${JSON.stringify(c.value).slice(0, 60)}`, async () => {
      assertAccepted(await create(withField(fullBody(), c.at, c.value as never)));
    });
  }

  it('lists every violation of a body at once', async () => {
    const answer = await create({ endpoint: { type: 'PHONE', phoneNumber: 'x' }, callsConfigurationId: 'c', from: 'y', customData: { ['k'.repeat(200)]: 'v' } });
    assert.equal(answer.status, 400);
    assert.deepEqual(Object.keys(answer.body.requestError.serviceException.validationErrors).sort(), ['customData', 'endpoint.phoneNumber', 'from']);
  });
});
