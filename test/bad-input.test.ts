import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_JSON_DEPTH } from '../src/core/json-body.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** A body that one endpoint rightly accepts: the legacy text endpoint ignores properties it does not know, and its `text` is optional. */
interface AcceptedBy {
  body: unknown;
  acceptedBy: string[];
}
const acceptedByLegacyText = (body: unknown): AcceptedBy => ({ body, acceptedBy: ['POST /sms/2/text/advanced'] });

/** Bodies that are wrong in every way a client can get them wrong, for every JSON endpoint. */
const NASTY_BODIES: Array<unknown | AcceptedBy> = [
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
  acceptedByLegacyText({ messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a', hex: '00' } }] }),
  acceptedByLegacyText({ messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a' }, options: { validityPeriod: { amount: -1, timeUnit: 'YEARS' } } }] }),
  acceptedByLegacyText({ messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a' }, options: { deliveryTimeWindow: { days: ['FUNDAY'], from: { hour: 25 } } } }] }),
  acceptedByLegacyText({ messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'a' }, webhooks: { delivery: { url: 'javascript:alert(1)' } } }] }),
  { messages: [{ destinations: [{ to: '41793026727' }], text: 'a', sendAt: 'yesterday', validityPeriod: 'long', notifyUrl: 'ftp://x' }] },
  acceptedByLegacyText({ messages: [{ destinations: [{ to: '41793026727' }], binary: { hex: 'GG', dataCoding: 'x', esmClass: 1e99 } }] }),
  { options: { schedule: { sendAt: '9999-99-99T99:99:99Z', sendingSpeedLimit: { amount: 0, timeUnit: 'WEEK' } } } },
  { text: null, languageCode: 'KLINGON', transliteration: 5 },
  { subscriptionId: '', events: 'DELIVERY', profile: { webhook: { notifyUrl: 'not a url' } } },
  { subscriptionId: 'x/y', events: ['NOPE'], profile: { security: { type: 'MAGIC' } } },
  { from: 'ACME', to: null, text: 5 },
  { rules: [{ match: {}, outcome: 'EXPLODE', latencyMs: -5 }] },
];

const deepArrays = '['.repeat(5000) + ']'.repeat(5000);
const deepObjects = '{"a":'.repeat(2000) + '1' + '}'.repeat(2000);
const justTooDeep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
const sms = (extra: string): string => `{"messages":[{"destinations":[{"to":"41793026727"}],"content":{"text":"a"}${extra}}]}`;

/** Raw texts: malformed JSON, nesting, sizes, unstorable text and prototype keys. Each is a 400 everywhere. */
const RAW_BODIES: Array<[string, string]> = [
  ['empty', ''],
  ['truncated', '{'],
  ['malformed', '{"messages": [}'],
  ['a NUL byte', '\u0000'],
  ['two values', 'null null'],
  ['10 KB of nested arrays', deepArrays],
  ['nested objects', deepObjects],
  [`nesting one level past ${MAX_JSON_DEPTH}`, justTooDeep],
  ['deep nesting inside a valid request', sms(`,"callbackData":${deepArrays}`)],
  ['deep nesting in a string-only field', sms(`,"entityId":${deepObjects}`)],
  ['a huge array', `{"messages":[${'1,'.repeat(1_000_000)}1],"rules":[${'1,'.repeat(100_000)}1]}`],
  ['a huge string', `{"messages":"${'x'.repeat(5_000_000)}","rules":"${'y'.repeat(1_000_000)}","text":5}`],
  ['an escaped NUL', sms(',"callbackData":"a\\u0000b"')],
  ['a lone high surrogate', sms(',"callbackData":"\\ud800"')],
  ['a lone low surrogate', '{"text":"\\udc00","rules":"\\udc00","messages":"\\udc00"}'],
  ['__proto__', '{"__proto__":{"polluted":true},"messages":[]}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}},"messages":[]}'],
  ['over the body limit', `{"text":"${'z'.repeat(17 * 1024 * 1024)}"}`],
];

interface Operation {
  method: string;
  path: string;
}

/** Every operation of the OpenAPI document, with its path parameters filled in. */
async function operations(server: TestServer): Promise<Array<Operation & { hasBody: boolean }>> {
  const spec = (await server.request('GET', '/openapi.json')).json() as {
    paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ in: string; name: string; schema?: { enum?: string[] } }> }>>;
  };
  const out: Array<Operation & { hasBody: boolean }> = [];
  for (const [template, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      let path = template;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path') continue;
        const value = parameter.schema?.enum?.[0] ?? (parameter.name === 'number' ? '41793026727' : 'no-such-id');
        path = path.replace(`{${parameter.name}}`, value);
      }
      out.push({ method: method.toUpperCase(), path, hasBody: operation.requestBody !== undefined });
    }
  }
  return out;
}

const GETS: Array<[string, number]> = [
  ['/sms/3/reports?limit=-1', 400],
  ['/sms/3/reports?limit=abc&bulkId=', 400],
  ['/sms/3/reports?limit=1000000', 400],
  ['/sms/1/reports?limit=1.5', 400],
  ['/sms/3/logs?sentSince=garbage', 400],
  ['/sms/3/logs?sentUntil=2025-02-30T00:00:00Z', 400],
  ['/sms/3/logs?generalStatus=SHINY', 400],
  ['/sms/3/logs?useCursor=true&cursor=%25%25%25', 400],
  ['/sms/3/logs?mnc=01', 400],
  [`/sms/3/logs?bulkId=${'a,'.repeat(2000)}`, 400],
  ['/sms/1/logs?limit=0&sentSince=%00', 400],
  ['/sms/1/inbox/reports?limit=-5', 400],
  ['/subscriptions/1/subscription/VOICE', 400],
  ['/subscriptions/1/subscription/SMS?page=-1&size=100000', 400],
  [`/subscriptions/1/subscription/SMS/${'x'.repeat(5000)}`, 400],
  ['/sandbox/1/phones/not-a-number/messages', 400],
  ['/sms/3/%E0%A4%A/reports', 400],
  ['/sandbox/1/phones/41793026727/messages?limit=-1', 400],
  ['/switchboard/1/webhooks/attempts?limit=x&before=y', 400],
  ['/switchboard/1/webhooks/attempts?before=100000000000000000000', 400],
  ['/switchboard/1/webhooks/items?state=lost', 400],
];

function assertEnvelope(path: string, status: number, text: string): void {
  const body = JSON.parse(text) as Record<string, unknown>;
  if (path.startsWith('/sms/3/') || path.startsWith('/rcs/2/')) {
    assert.deepEqual(Object.keys(body).sort(), ['action', 'description', 'errorCode', 'resources', 'violations'], path);
    assert.equal(body.errorCode, `E${status}`, path);
  } else {
    assert.deepEqual(Object.keys(body), ['requestError'], path);
  }
  assert.doesNotMatch(text, /at .+\.js:\d+/, `${path}: a stack trace leaked`);
}

async function expectStatus(server: TestServer, operation: Operation, expected: number, label: string, rawBody?: string): Promise<string> {
  const options = rawBody === undefined ? {} : { rawBody, headers: { 'content-type': 'application/json' } };
  const response = await server.request(operation.method, operation.path, options);
  const what = `${operation.method} ${operation.path.slice(0, 80)} with ${label}`;
  assert.equal(response.status, expected, `${what} answered ${response.status}: ${response.text.slice(0, 300)}`);
  if (expected >= 400) assertEnvelope(operation.path, response.status, response.text);
  return response.text;
}

describe('bad input gets the exact 4xx in the family envelope, never a 5xx', () => {
  let server: TestServer;
  let jsonOperations: Operation[];
  before(async () => {
    server = await startTestServer();
    jsonOperations = (await operations(server)).filter((operation) => operation.hasBody);
  });
  after(() => server.close());

  it('finds the JSON endpoints in the OpenAPI document', () => {
    const found = jsonOperations.map((operation) => `${operation.method} ${operation.path}`);
    for (const known of ['POST /sms/3/messages', 'POST /sms/2/text/advanced', 'POST /sms/1/preview', 'PUT /sandbox/1/rules', 'POST /subscriptions/1/subscription/SMS']) {
      assert.ok(found.includes(known), `${known} is not among ${found.join(', ')}`);
    }
  });

  it('bodies of every wrong shape are a 400 on every JSON endpoint', async () => {
    for (const operation of jsonOperations) {
      for (const entry of NASTY_BODIES) {
        const accepted = typeof entry === 'object' && entry !== null && 'acceptedBy' in entry;
        const body = accepted ? (entry as AcceptedBy).body : entry;
        const expected = accepted && (entry as AcceptedBy).acceptedBy.includes(`${operation.method} ${operation.path}`) ? 200 : 400;
        await expectStatus(server, operation, expected, JSON.stringify(body).slice(0, 80), JSON.stringify(body));
      }
    }
  });

  it('a huge invalid body is refused quickly with its first violation; a small one with all of them', async () => {
    const huge = await expectStatus(server, { method: 'POST', path: '/sms/3/messages' }, 400, 'a huge array', `{"messages":[${'1,'.repeat(200_000)}1]}`);
    assert.deepEqual(JSON.parse(huge).violations, [{ property: 'messages[0]', violation: 'must be object' }]);
    const small = await expectStatus(server, { method: 'POST', path: '/sms/3/messages' }, 400, 'three wrong items', '{"messages":[1,2,3]}');
    assert.deepEqual(JSON.parse(small).violations.map((v: { property: string }) => v.property), ['messages[0]', 'messages[1]', 'messages[2]']);
  });

  it('malformed, deep, huge, unstorable and prototype-poisoning bodies are a 400 on every JSON endpoint', async () => {
    for (const operation of jsonOperations) {
      for (const [label, raw] of RAW_BODIES) await expectStatus(server, operation, 400, label, raw);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  });

  it('a body nested too deep names the limit', async () => {
    const text = await expectStatus(server, { method: 'POST', path: '/sms/3/messages' }, 400, 'deep', deepArrays);
    assert.deepEqual(JSON.parse(text).violations, [{ property: 'body', violation: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep` }]);
    const legacy = await expectStatus(server, { method: 'PUT', path: '/sandbox/1/rules' }, 400, 'deep', deepObjects);
    assert.deepEqual(JSON.parse(legacy).requestError.serviceException.validationErrors, {
      body: [`must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`],
    });
    const justDeepEnough = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    const allowed = await expectStatus(server, { method: 'POST', path: '/sms/3/messages' }, 400, 'deep enough', justDeepEnough);
    assert.doesNotMatch(allowed, /levels deep/, 'a body at the limit is parsed and validated like any other');
  });

  it('query strings of every wrong shape are a 4xx', async () => {
    for (const [path, status] of GETS) await expectStatus(server, { method: 'GET', path }, status, 'its query');
  });

  it('wrong methods and content types are answered in the envelope', async () => {
    for (const [method, path] of [['DELETE', '/sms/3/messages'], ['PUT', '/sms/3/reports'], ['PATCH', '/sms/1/logs']] as const) {
      await expectStatus(server, { method, path }, 404, 'a wrong method');
    }
    const xml = await server.request('POST', '/sms/3/messages', { rawBody: '<messages/>', headers: { 'content-type': 'application/xml' } });
    assert.equal(xml.status, 400);
    assertEnvelope('/sms/3/messages', xml.status, xml.text);
  });
});
