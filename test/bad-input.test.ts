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

/**
 * Raw texts: malformed JSON, nesting, sizes, unstorable text and prototype keys. `always` marks a
 * 400 on every endpoint; the others are well-formed JSON objects of unknown properties, which an
 * endpoint whose body fields are all optional rightly accepts.
 */
const RAW_BODIES: Array<[label: string, raw: string, always: boolean]> = [
  ['empty', '', true],
  ['truncated', '{', true],
  ['malformed', '{"messages": [}', true],
  ['a NUL byte', '\u0000', true],
  ['two values', 'null null', true],
  ['10 KB of nested arrays', deepArrays, true],
  ['nested objects', deepObjects, true],
  [`nesting one level past ${MAX_JSON_DEPTH}`, justTooDeep, true],
  ['deep nesting inside a valid request', sms(`,"callbackData":${deepArrays}`), true],
  ['deep nesting in a string-only field', sms(`,"entityId":${deepObjects}`), true],
  ['a large array', `{"messages":[${'1,'.repeat(100_000)}1],"rules":[${'1,'.repeat(10_000)}1]}`, false],
  ['a large string', `{"messages":"${'x'.repeat(500_000)}","rules":"${'y'.repeat(100_000)}","text":5}`, false],
  ['an escaped NUL', sms(',"callbackData":"a\\u0000b"'), true],
  ['a lone high surrogate', sms(',"callbackData":"\\ud800"'), true],
  ['a lone low surrogate', '{"text":"\\udc00","rules":"\\udc00","messages":"\\udc00"}', true],
  ['__proto__', '{"__proto__":{"polluted":true},"messages":[]}', true],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}},"messages":[]}', true],
];

/** The body limit applies before any route runs: one endpoint of each error family shows it. */
const OVER_THE_LIMIT = `{"text":"${'z'.repeat(17 * 1024 * 1024)}"}`;

interface Operation {
  method: string;
  path: string;
}

interface JsonOperation extends Operation {
  /** Every body field is optional and unknown ones are ignored: any object of unknown fields is valid. */
  lenient: boolean;
  /** The body may be left out altogether (`null` or nothing at all read as `{}`). */
  optional: boolean;
  /** The body's own fields, which the nasty bodies may set wrongly. */
  fields: string[];
  /** What a valid body gets: the documented success, or 404 for a path naming nothing. */
  validStatus: number;
}

type OpenApiOperation = {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: string[]; properties?: Record<string, unknown> } }> };
  parameters?: Array<{ in: string; name: string; schema?: { enum?: string[] } }>;
  responses?: Record<string, unknown>;
};

/** Every operation of the OpenAPI document taking a JSON body, with its path parameters filled in. */
async function jsonOperations(server: TestServer): Promise<JsonOperation[]> {
  const spec = (await server.request('GET', '/openapi.json')).json() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const out: JsonOperation[] = [];
  for (const [template, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      let path = template;
      let namesNothing = false;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path') continue;
        const value = parameter.schema?.enum?.[0] ?? (parameter.name === 'number' ? '41793026727' : 'no-such-id');
        namesNothing ||= value === 'no-such-id';
        path = path.replace(`{${parameter.name}}`, value);
      }
      const success = Object.keys(operation.responses ?? {}).find((code) => code.startsWith('2'));
      out.push({
        method: method.toUpperCase(),
        path,
        lenient: (schema.required ?? []).length === 0,
        optional: operation.requestBody?.required === false,
        fields: Object.keys(schema.properties ?? {}),
        validStatus: namesNothing ? 404 : Number(success ?? 200),
      });
    }
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a lenient endpoint takes this body: an object setting none of its own fields, or none at all where the body is optional. */
const takenBy = (operation: JsonOperation, body: unknown): boolean =>
  (operation.optional && body === null) || (operation.lenient && isObject(body) && !operation.fields.some((field) => field in body));

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
  ['/calls/1/configurations?page=-1', 400],
  ['/calls/1/configurations?size=101', 400],
  ['/calls/1/calls?size=0', 400],
  ['/calls/1/calls?type=FAX', 400],
  ['/calls/1/calls/history?status=SHINY', 400],
  ['/calls/1/calls/history?startTimeAfter=yesterday', 400],
  ['/calls/1/calls/history?direction=SIDEWAYS&page=x', 400],
  [`/calls/1/calls/${'c'.repeat(300)}`, 400],
  ['/calls/1/files?size=1000', 400],
  ['/calls/1/files/no-such-file', 404],
  ['/sandbox/1/calls/no-such-call/timeline', 404],
  ['/sandbox/1/calls/no-such-call/audio', 404],
  ['/switchboard/1/messages?limit=10001', 400],
  ['/switchboard/1/messages?seqs=1;2&before=x', 400],
  [`/switchboard/1/messages?seqs=${'1,'.repeat(1000)}1`, 400],
  ['/switchboard/1/messages?status=SHINY&channel=FAX', 400],
  [`/switchboard/1/messages?text=${'t'.repeat(201)}`, 400],
  ['/switchboard/1/messages/no-such-message', 404],
  [`/switchboard/1/messages/${'m'.repeat(250)}`, 400],
  ['/switchboard/1/webhooks/items/no-such-item', 404],
  ['/switchboard/1/webhooks/items/99999999999999999999', 404],
  [`/switchboard/1/webhooks/items/${'9'.repeat(21)}`, 400],
  [`/switchboard/1/webhooks/items?url=${'u'.repeat(3000)}`, 400],
  ['/sandbox/1/phones?limit=x', 400],
  ['/sandbox/1/phones/41793026727/messages?include=received', 400],
  ['/switchboard/1/2fa/applications/no-such-app/pins', 404],
  ['/switchboard/1/2fa/applications/no-such-app/pins?limit=-1', 400],
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
  let operations: JsonOperation[];
  before(async () => {
    server = await startTestServer();
    operations = await jsonOperations(server);
  });
  after(() => server.close());

  it('finds the JSON endpoints in the OpenAPI document', () => {
    const found = operations.map((operation) => `${operation.method} ${operation.path}`);
    for (const known of [
      'POST /sms/3/messages',
      'POST /sms/2/text/advanced',
      'POST /sms/1/preview',
      'PUT /sandbox/1/rules',
      'POST /subscriptions/1/subscription/SMS',
      'POST /calls/1/calls',
      'POST /calls/1/calls/no-such-id/say',
      'POST /calls/1/configurations',
      'POST /rcs/2/messages',
      'POST /sandbox/1/rcs/inbound',
      'POST /2fa/2/applications',
      'PUT /2fa/2/applications/no-such-id',
      'POST /2fa/2/applications/no-such-id/messages',
      'POST /2fa/2/pin',
      'POST /2fa/2/pin/voice',
      'POST /2fa/2/pin/no-such-id/resend',
      'POST /2fa/2/pin/no-such-id/verify',
      'PUT /switchboard/1/2fa/applications/no-such-id/protection',
    ]) {
      assert.ok(found.includes(known), `${known} is not among ${found.join(', ')}`);
    }
  });

  it('bodies of every wrong shape are a 400 on every JSON endpoint', async () => {
    for (const operation of operations) {
      for (const entry of NASTY_BODIES) {
        const marked = typeof entry === 'object' && entry !== null && 'acceptedBy' in entry;
        const body = marked ? (entry as AcceptedBy).body : entry;
        const accepted = (marked && (entry as AcceptedBy).acceptedBy.includes(`${operation.method} ${operation.path}`)) || takenBy(operation, body);
        await expectStatus(server, operation, accepted ? operation.validStatus : 400, JSON.stringify(body).slice(0, 80), JSON.stringify(body));
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
    for (const operation of operations) {
      for (const [label, raw, always] of RAW_BODIES) {
        const accepted = raw === '' ? operation.optional : !always && takenBy(operation, JSON.parse(raw));
        await expectStatus(server, operation, accepted ? operation.validStatus : 400, label, raw);
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  });

  it('a million-item array and a five-megabyte string are refused like small ones', async () => {
    const hugeArray = `{"messages":[${'1,'.repeat(1_000_000)}1],"rules":[${'1,'.repeat(100_000)}1]}`;
    const hugeString = `{"messages":"${'x'.repeat(5_000_000)}","rules":"${'y'.repeat(1_000_000)}","text":5}`;
    for (const path of ['/sms/3/messages', '/sms/2/text/advanced', '/calls/1/calls']) {
      await expectStatus(server, { method: 'POST', path }, 400, 'a huge array', hugeArray);
      await expectStatus(server, { method: 'POST', path }, 400, 'a huge string', hugeString);
    }
  });

  it('a body over the size limit is a 400 naming the body', async () => {
    for (const path of ['/sms/3/messages', '/calls/1/calls']) {
      const text = await expectStatus(server, { method: 'POST', path }, 400, 'over the body limit', OVER_THE_LIMIT);
      assert.match(text, /request body is too large/);
    }
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
