import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';

describe('operations endpoints', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers /health with 200 once ready', async () => {
    const response = await server.request('GET', '/health', { key: null });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json(), { status: 'ok' });
  });

  it('exports Prometheus metrics of the HTTP side and of the engine', async () => {
    const sent = await server.request('POST', '/sms/3/messages', {
      body: { messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'metrics' } }] },
    });
    assert.equal(sent.status, 200);
    // Submitting and recording happen in the engine (its own thread by default): its counters must show too.
    const text = await eventually(async () => {
      const response = await server.request('GET', '/metrics', { key: null });
      assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
      return /switchboard_message_status_changes_total\{group="DELIVERED"\} [1-9]/.test(response.text) ? response.text : undefined;
    });
    assert.match(text, /switchboard_messages_accepted_total\{[^}]*\} [1-9]/);
    assert.match(text, /switchboard_messages_submitted_total\{carrier="sandbox"\} [1-9]/);
    assert.match(text, /switchboard_process_resident_memory_bytes/);
  });

  it('runs the engine in its own thread unless told otherwise', () => {
    assert.equal(server.ctx.config.engine, 'thread');
    assert.equal(server.ctx.engine.constructor.name, 'ThreadEngine');
  });

  it('serves an OpenAPI 3.1 document covering every endpoint', async () => {
    const doc = (await server.request('GET', '/openapi.json', { key: null })).json();
    assert.match(doc.openapi, /^3\.1/);
    const paths = Object.keys(doc.paths);
    for (const expected of [
      '/sms/3/messages',
      '/sms/3/reports',
      '/sms/3/logs',
      '/sms/2/text/advanced',
      '/sms/2/binary/advanced',
      '/sms/1/reports',
      '/sms/1/logs',
      '/sms/1/inbox/reports',
      '/sms/1/preview',
      '/rcs/2/messages',
      '/rcs/2/reports',
      '/rcs/2/logs',
      '/subscriptions/1/subscription/{channel}',
      '/subscriptions/1/subscription/{channel}/{subscriptionId}',
      '/sandbox/1/sms/inbound',
      '/sandbox/1/phones/{number}/messages',
      '/calls/1/configurations',
      '/calls/1/configurations/{callsConfigurationId}',
      '/calls/1/calls',
      '/calls/1/calls/history',
      '/calls/1/calls/{callId}',
      '/calls/1/calls/{callId}/history',
      '/calls/1/calls/{callId}/say',
      '/calls/1/calls/{callId}/play',
      '/calls/1/calls/{callId}/stop-play',
      '/calls/1/calls/{callId}/answer',
      '/calls/1/calls/{callId}/pre-answer',
      '/calls/1/calls/{callId}/send-ringing',
      '/calls/1/calls/{callId}/hangup',
      '/calls/1/calls/{callId}/capture/dtmf',
      '/calls/1/calls/{callId}/send-dtmf',
      '/calls/1/files',
      '/calls/1/files/{fileId}',
      '/sandbox/1/calls/inbound',
      '/sandbox/1/calls/{callId}/dtmf',
      '/sandbox/1/calls/{callId}/hangup',
      '/sandbox/1/calls/{callId}/timeline',
      '/sandbox/1/calls/{callId}/audio',
      '/sandbox/1/rcs/messages/{messageId}/seen',
      '/sandbox/1/rcs/inbound',
      '/2fa/2/applications',
      '/2fa/2/applications/{appId}',
      '/2fa/2/applications/{appId}/messages',
      '/2fa/2/applications/{appId}/messages/{msgId}',
      '/2fa/2/pin',
      '/2fa/2/pin/voice',
      '/2fa/2/pin/{pinId}/resend',
      '/2fa/2/pin/{pinId}/resend/voice',
      '/2fa/2/pin/{pinId}/verify',
      '/2fa/2/applications/{appId}/verifications',
      '/switchboard/1/2fa/applications/{appId}/protection',
      '/health',
      '/metrics',
    ]) {
      assert.ok(paths.includes(expected), `${expected} missing from the OpenAPI document`);
    }
    assert.ok(doc.paths['/sms/3/messages'].post.requestBody, 'request schema is documented');
    assert.equal(doc.paths['/calls/1/calls'].post.responses['201'].content['application/json'].schema.properties.state.enum.length, 9);
    assert.equal(doc.paths['/calls/1/calls/{callId}/hangup'].post.requestBody.required, false, 'an optional body is documented as such');
    const limited = ['/2fa/2/pin', '/2fa/2/pin/voice', '/2fa/2/pin/{pinId}/resend', '/2fa/2/pin/{pinId}/resend/voice', '/2fa/2/pin/{pinId}/verify'];
    for (const path of limited) {
      const tooMany = doc.paths[path].post.responses['429'];
      assert.ok(tooMany, `${path} documents its 429`);
      assert.equal(tooMany.headers['Retry-After'].schema.type, 'integer');
      assert.equal(tooMany.content['application/json'].schema.$ref, '#/components/schemas/ApiException');
    }
    assert.equal(doc.paths['/2fa/2/applications'].post.responses['429'], undefined, 'only routes that enforce a limit document a 429');
    assert.equal(doc.paths['/sms/3/messages'].post.responses['429'], undefined);
    assert.match(doc.info.description, /SMS, RCS, Calls \(voice\), 2FA and Subscriptions/);
  });

  it('renders the documentation page', async () => {
    const response = await fetch(`${server.url}/docs/`, { redirect: 'follow' });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<html/i);
  });

  it('answers unknown URLs with 404 in the family envelope', async () => {
    const v3 = await server.request('GET', '/sms/3/nothing-here');
    assert.equal(v3.status, 404);
    assert.equal(v3.json().errorCode, 'E404');
    const legacy = await server.request('GET', '/sms/1/nothing-here');
    assert.equal(legacy.status, 404);
    assert.equal(legacy.json().requestError.serviceException.messageId, 'NOT_FOUND');
  });

  it('answers malformed JSON with a 400 naming the body, in each family envelope', async () => {
    const v3 = await server.request('POST', '/sms/3/messages', { rawBody: '{"messages": [', headers: { 'content-type': 'application/json' } });
    assert.equal(v3.status, 400);
    assert.deepEqual(Object.keys(v3.json()).sort(), ['action', 'description', 'errorCode', 'resources', 'violations']);
    assert.equal(v3.json().violations[0].property, 'body');
    const legacy = await server.request('POST', '/sms/2/text/advanced', { rawBody: 'nope', headers: { 'content-type': 'application/json' } });
    assert.equal(legacy.status, 400);
    assert.equal(legacy.json().requestError.serviceException.messageId, 'BAD_REQUEST');
    const wrongType = await server.request('POST', '/sms/3/messages', { rawBody: 'a=b', headers: { 'content-type': 'text/plain' } });
    assert.equal(wrongType.status, 400);
  });
});
