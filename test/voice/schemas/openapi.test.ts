import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CALL_LANGUAGES } from '../../../src/voice/schemas/languages.js';
import { startCallsApp, type CallsApp } from './calls-app.js';

describe('Calls schemas in the OpenAPI document', () => {
  let calls: CallsApp;
  let document: any;
  before(async () => {
    calls = await startCallsApp({ openApi: true });
    document = calls.app.swagger();
  });
  after(() => calls.close());

  const bodyOf = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema;

  it('documents the create-call body with its endpoint types and bounds', () => {
    const body = bodyOf('/calls/1/calls');
    assert.deepEqual(body.required, ['endpoint', 'callsConfigurationId']);
    assert.deepEqual(body.properties.endpoint.properties.type.enum, ['PHONE', 'SIP', 'WEBRTC', 'VIBER', 'WHATSAPP', 'WEBSOCKET']);
    assert.equal(body.properties.connectTimeout.maximum, 60);
    assert.equal(body.properties.customData.maxProperties, 50);
  });

  it('documents the 80 languages of say and the query parameters of the call lists', () => {
    assert.deepEqual(bodyOf('/calls/1/calls/{callId}/say').properties.language.enum, [...CALL_LANGUAGES]);
    const parameters = document.paths['/calls/1/calls/history'].get.parameters as Array<{ name: string; in: string }>;
    assert.deepEqual(
      parameters.map((p) => p.name),
      ['type', 'callsConfigurationId', 'applicationId', 'from', 'to', 'direction', 'status', 'startTimeAfter', 'conferenceId', 'dialogId', 'bulkId', 'page', 'size'],
    );
    assert.ok(parameters.every((p) => p.in === 'query'));
  });

  it('documents responses with Infobip names and the Calls error envelope', () => {
    const call = document.paths['/test/call'].get.responses['200'].content['application/json'].schema;
    assert.ok('callsConfigurationId' in call.properties && 'id' in call.properties);
    const say = document.paths['/calls/1/calls/{callId}/say'].post.responses['400'].content['application/json'].schema;
    assert.equal(say.$ref, '#/components/schemas/ApiException');
  });
});

describe('CALL_LANGUAGES', () => {
  it('holds the 80 distinct codes, with ar_xa spelled with its underscore', () => {
    assert.equal(CALL_LANGUAGES.length, 80);
    assert.equal(new Set(CALL_LANGUAGES).size, 80);
    assert.ok((CALL_LANGUAGES as readonly string[]).includes('ar_xa'));
    assert.ok(CALL_LANGUAGES.every((code) => /^[a-z]{2,3}([-_][a-z0-9]{2,3})*$/.test(code)));
  });
});
