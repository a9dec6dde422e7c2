import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Bodies that are wrong in every way a client can get them wrong. */
const NASTY_BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  true,
  {},
  { messages: null },
  { messages: {} },
  { messages: [null] },
  { messages: [[]] },
  { messages: [{}] },
  { messages: [{ destinations: null, content: null }] },
  { messages: [{ destinations: [null], content: { text: null } }] },
  { messages: [{ destinations: [{ to: {} }], content: { text: ['a'] } }] },
  { messages: [{ destinations: [{ to: '1'.repeat(100_000) }], content: { text: 'x'.repeat(200_000) } }] },
  { messages: [{ destinations: [{ to: '41793026727', messageId: 7 }], content: { hex: 'zz' } }] },
  { messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a', hex: '00' } }] },
  { messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a' }, options: { validityPeriod: { amount: -1, timeUnit: 'YEARS' } } }] },
  { messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a' }, options: { deliveryTimeWindow: { days: ['FUNDAY'], from: { hour: 25 } } } }] },
  { messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a' }, webhooks: { delivery: { url: 'javascript:alert(1)' } } }] },
  { messages: [{ destinations: [{ to: '41793026727' }], text: 'a', sendAt: 'yesterday', validityPeriod: 'long', notifyUrl: 'ftp://x' }] },
  { messages: [{ destinations: [{ to: '41793026727' }], binary: { hex: 'GG', dataCoding: 'x', esmClass: 1e99 } }] },
  { options: { schedule: { sendAt: '9999-99-99T99:99:99Z', sendingSpeedLimit: { amount: 0, timeUnit: 'WEEK' } } } },
  { text: null, languageCode: 'KLINGON', transliteration: 5 },
  { subscriptionId: '', events: 'DELIVERY', profile: { webhook: { notifyUrl: 'not a url' } } },
  { subscriptionId: 'x/y', events: ['NOPE'], profile: { security: { type: 'MAGIC' } } },
  { from: 'ACME', to: null, text: 5 },
  { rules: [{ match: {}, outcome: 'EXPLODE', latencyMs: -5 }] },
  { ['__proto__']: { polluted: true }, constructor: { prototype: { polluted: true } } },
];

const POSTS = [
  '/sms/3/messages',
  '/sms/2/text/advanced',
  '/sms/2/binary/advanced',
  '/sms/1/preview',
  '/subscriptions/1/subscription/SMS',
  '/sandbox/1/sms/inbound',
];

const GETS = [
  '/sms/3/reports?limit=-1',
  '/sms/3/reports?limit=abc&bulkId=',
  '/sms/3/reports?limit=1000000',
  '/sms/1/reports?limit=1.5',
  '/sms/3/logs?sentSince=garbage',
  '/sms/3/logs?sentUntil=2025-02-30T00:00:00Z',
  '/sms/3/logs?generalStatus=SHINY',
  '/sms/3/logs?useCursor=true&cursor=%25%25%25',
  '/sms/3/logs?mnc=01',
  `/sms/3/logs?bulkId=${'a,'.repeat(2000)}`,
  '/sms/1/logs?limit=0&sentSince=%00',
  '/sms/1/inbox/reports?limit=-5',
  '/subscriptions/1/subscription/VOICE',
  '/subscriptions/1/subscription/SMS?page=-1&size=100000',
  `/subscriptions/1/subscription/SMS/${'x'.repeat(5000)}`,
  '/sandbox/1/phones/not-a-number/messages',
  '/sms/3/%E0%A4%A/reports',
  '/sandbox/1/phones/41793026727/messages?limit=-1',
  '/switchboard/1/webhooks/attempts?limit=x&before=y',
  '/switchboard/1/webhooks/attempts?before=100000000000000000000',
  '/switchboard/1/webhooks/items?state=lost',
];

function assertEnvelope(path: string, status: number, text: string): void {
  assert.ok(status < 500, `${path} answered ${status}: ${text.slice(0, 300)}`);
  if (status < 400) return;
  const body = JSON.parse(text) as Record<string, unknown>;
  if (path.startsWith('/sms/3/')) {
    assert.deepEqual(Object.keys(body).sort(), ['action', 'description', 'errorCode', 'resources', 'violations'], path);
  } else {
    assert.deepEqual(Object.keys(body), ['requestError'], path);
  }
  assert.doesNotMatch(text, /at .+\.js:\d+/, `${path}: a stack trace leaked`);
}

describe('bad input never gets a 5xx', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('POST bodies of every wrong shape get a 4xx in the family envelope', async () => {
    for (const path of POSTS) {
      for (const body of NASTY_BODIES) {
        const response = await server.request('POST', path, { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        assertEnvelope(path, response.status, response.text);
      }
      for (const raw of ['', '{', '{"messages": [}', '\u0000', 'null null']) {
        const response = await server.request('POST', path, { rawBody: raw, headers: { 'content-type': 'application/json' } });
        assertEnvelope(path, response.status, response.text);
        assert.ok(response.status >= 400, `${path} accepted ${JSON.stringify(raw)}`);
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  });

  it('query strings of every wrong shape get a 4xx in the family envelope', async () => {
    for (const path of GETS) {
      const response = await server.request('GET', path);
      assertEnvelope(path, response.status, response.text);
    }
  });

  it('wrong methods and content types are answered in the envelope', async () => {
    for (const [method, path] of [['DELETE', '/sms/3/messages'], ['PUT', '/sms/3/reports'], ['PATCH', '/sms/1/logs']] as const) {
      const response = await server.request(method, path);
      assertEnvelope(path, response.status, response.text);
      assert.equal(response.status, 404);
    }
    const xml = await server.request('POST', '/sms/3/messages', { rawBody: '<messages/>', headers: { 'content-type': 'application/xml' } });
    assertEnvelope('/sms/3/messages', xml.status, xml.text);
    assert.equal(xml.status, 400);
  });
});
