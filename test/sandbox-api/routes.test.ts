import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';

const T0 = Date.UTC(2025, 2, 4, 10, 15, 30);

interface PhoneInbox {
  number: string;
  messages: Array<{ channel: string; direction: string; messageId?: string; from?: string; text?: string; receivedAt: string }>;
}

async function send(server: TestServer, to: string, text: string): Promise<string> {
  const response = await server.request('POST', '/sms/3/messages', {
    body: { messages: [{ sender: 'ACME', destinations: [{ to }], content: { text } }] },
  });
  assert.equal(response.status, 200, response.text);
  return response.json().messages[0].messageId;
}

async function reportFor(server: TestServer, messageId: string): Promise<{ status: { name: string }; error: { name: string } }> {
  return eventually(async () => {
    const response = await server.request('GET', `/sms/3/reports?messageId=${messageId}`);
    return response.json().results[0];
  });
}

describe('sandbox API', () => {
  const clock = new ManualClock(T0);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    await server.close();
  });

  it('a phone inbox lists what the phone received, newest first', async () => {
    const first = await send(server, '41793026001', 'your code is 111111');
    await eventually(async () => ((await inboxOf(server, '41793026001')).messages.length === 1 ? true : undefined));
    clock.advance(1000);
    const second = await send(server, '+41793026001', 'your code is 222222');

    const inbox = await eventually(async () => {
      const body = await inboxOf(server, '41793026001');
      return body.messages.length === 2 ? body : undefined;
    });
    assert.equal(inbox.number, '41793026001');
    assert.deepEqual(inbox.messages, [
      { channel: 'SMS', direction: 'received', messageId: second, from: 'ACME', text: 'your code is 222222', receivedAt: '2025-03-04T10:15:31.000+0000' },
      { channel: 'SMS', direction: 'received', messageId: first, from: 'ACME', text: 'your code is 111111', receivedAt: '2025-03-04T10:15:30.000+0000' },
    ]);

    const limited = await server.request('GET', '/sandbox/1/phones/%2B41793026001/messages?limit=1');
    assert.equal(limited.status, 200);
    assert.deepEqual(limited.json<PhoneInbox>().messages.map((m) => m.text), ['your code is 222222']);
  });

  it('an unknown phone has an empty inbox; a bad number or limit is a 400 naming it', async () => {
    const empty = await server.request('GET', '/sandbox/1/phones/4400000000/messages');
    assert.deepEqual(empty.json(), { number: '4400000000', messages: [] });
    const badNumber = await server.request('GET', '/sandbox/1/phones/not-a-number/messages');
    assert.equal(badNumber.status, 400);
    assert.ok(badNumber.json().requestError.serviceException.validationErrors.number);
    const badLimit = await server.request('GET', '/sandbox/1/phones/4400000000/messages?limit=0');
    assert.equal(badLimit.status, 400);
    assert.ok(badLimit.json().requestError.serviceException.validationErrors.limit);
  });

  it('an injected inbound SMS reaches the inbox pull', async () => {
    const response = await server.request('POST', '/sandbox/1/sms/inbound', {
      body: { from: '+385911234567', to: '447700900000', text: 'STOP sending' },
    });
    assert.equal(response.status, 200, response.text);
    const { messageId, ...rest } = response.json();
    assert.match(messageId, /^\d{18}$/);
    assert.deepEqual(rest, {
      from: '385911234567',
      to: '447700900000',
      text: 'STOP sending',
      smsCount: 1,
      receivedAt: formatInfobipTime(clock.now()),
    });
    const pulled = await server.request('GET', '/sms/1/inbox/reports');
    const results = pulled.json().results as Array<{ messageId: string; from: string; to: string; text: string; keyword?: string }>;
    const mine = results.find((r) => r.from === '385911234567');
    assert.ok(mine, pulled.text);
    assert.equal(mine.messageId, messageId, 'the id answered is the one the inbox shows');
    assert.equal(mine.to, '447700900000');
    assert.equal(mine.keyword, 'STOP');
  });

  it('inbound input is validated with the legacy envelope', async () => {
    const response = await server.request('POST', '/sandbox/1/sms/inbound', { body: { from: 'ACME', to: '447700900000', text: '' } });
    assert.equal(response.status, 400);
    const errors = response.json().requestError.serviceException.validationErrors;
    assert.ok(errors.from, response.text);
    assert.ok(errors.text, response.text);
    const tooLong = await server.request('POST', '/sandbox/1/sms/inbound', {
      body: { from: '385911234567', to: '447700900000', text: 'x'.repeat(1601) },
    });
    assert.equal(tooLong.status, 400);
    const unauthenticated = await server.request('POST', '/sandbox/1/sms/inbound', { key: null, body: { from: '1', to: '2', text: 'x' } });
    assert.equal(unauthenticated.status, 401);
    assert.ok(unauthenticated.json().requestError);
  });

  it('account rules are read and replaced, and decide outcomes', async () => {
    assert.deepEqual((await server.request('GET', '/sandbox/1/rules')).json(), { rules: [] });
    const rules = [
      { match: { prefix: '+3859' }, outcome: 'UNDELIVERABLE', error: 'EC_UNKNOWN_SUBSCRIBER' },
      { match: { number: '385000000001' }, outcome: 'REJECTED', status: 'REJECTED_DESTINATION', latencyMs: 0 },
    ];
    const put = await server.request('PUT', '/sandbox/1/rules', { body: { rules } });
    assert.equal(put.status, 200, put.text);
    const expected = {
      rules: [
        { match: { prefix: '3859' }, outcome: 'UNDELIVERABLE', error: 'EC_UNKNOWN_SUBSCRIBER' },
        { match: { number: '385000000001' }, outcome: 'REJECTED', status: 'REJECTED_DESTINATION', latencyMs: 0 },
      ],
    };
    assert.deepEqual(put.json(), expected);
    assert.deepEqual((await server.request('GET', '/sandbox/1/rules')).json(), expected);

    const undeliverable = await reportFor(server, await send(server, '385912345678', 'a'));
    assert.equal(undeliverable.status.name, 'UNDELIVERABLE_NOT_DELIVERED');
    assert.equal(undeliverable.error.name, 'EC_UNKNOWN_SUBSCRIBER');
    const rejected = await reportFor(server, await send(server, '385000000001', 'b'));
    assert.equal(rejected.status.name, 'REJECTED_DESTINATION');

    assert.equal((await server.request('PUT', '/sandbox/1/rules', { body: { rules: [] } })).status, 200);
    const delivered = await reportFor(server, await send(server, '385912345679', 'c'));
    assert.equal(delivered.status.name, 'DELIVERED_TO_HANDSET');
  });

  it('invalid rules are a 400 naming the rule and field', async () => {
    const semantic = await server.request('PUT', '/sandbox/1/rules', {
      body: { rules: [{ match: { suffix: '1' }, outcome: 'NO_REPORT', status: 'REJECTED_NETWORK' }] },
    });
    assert.equal(semantic.status, 400);
    assert.deepEqual(semantic.json().requestError.serviceException.validationErrors, {
      'rules[0].status': ['is not used by outcome NO_REPORT'],
    });
    const schema = await server.request('PUT', '/sandbox/1/rules', {
      body: { rules: [{ match: { suffix: '1' }, outcome: 'DELIVERED' }, { match: { suffix: '1' }, outcome: 'LOST' }] },
    });
    assert.equal(schema.status, 400);
    assert.ok(schema.json().requestError.serviceException.validationErrors['rules[1].outcome'], schema.text);
  });

  it('the sandbox routes are in the OpenAPI document', async () => {
    const doc = (await server.request('GET', '/openapi.json')).json();
    for (const route of ['/sandbox/1/sms/inbound', '/sandbox/1/phones/{number}/messages', '/sandbox/1/rules']) {
      assert.ok(doc.paths[route], `${route} missing`);
    }
    assert.ok(doc.paths['/sandbox/1/rules'].put.requestBody);
  });
});

describe('sandbox rules file', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-rules-http-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a valid rules file decides outcomes', async () => {
    const file = path.join(dir, 'rules.json');
    await writeFile(file, JSON.stringify({ rules: [{ match: { suffix: '5555' }, outcome: 'EXPIRED' }] }));
    const server = await startTestServer({ env: { SWITCHBOARD_SANDBOX_RULES: file } });
    try {
      const report = await reportFor(server, await send(server, '41790005555', 'x'));
      assert.equal(report.status.name, 'EXPIRED_EXPIRED');
      assert.equal(report.error.name, 'EC_MESSAGE_EXPIRED');
    } finally {
      await server.close();
    }
  });

  it('account rules set over HTTP reach the engine thread', async () => {
    const server = await startTestServer();
    try {
      assert.equal(server.ctx.engine.constructor.name, 'ThreadEngine');
      const put = await server.request('PUT', '/sandbox/1/rules', { body: { rules: [{ match: { suffix: '7777' }, outcome: 'UNDELIVERABLE' }] } });
      assert.equal(put.status, 200, put.text);
      assert.equal((await server.request('GET', '/sandbox/1/rules')).json().rules[0].outcome, 'UNDELIVERABLE');
      const report = await reportFor(server, await send(server, '41790007777', 'x'));
      assert.equal(report.status.name, 'UNDELIVERABLE_NOT_DELIVERED');
    } finally {
      await server.close();
    }
  });

  it('an invalid rules file stops start-up with an error naming the entry', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, JSON.stringify([{ match: { suffix: '5555' }, outcome: 'EXPLODE' }]));
    const dataDir = path.join(dir, 'data');
    await assert.rejects(
      startTestServer({ env: { SWITCHBOARD_SANDBOX_RULES: file, DATA_DIR: dataDir } }),
      /bad\.json is invalid:\n\s+rules\[0\]\.outcome: must be one of/,
    );
  });
});

async function inboxOf(server: TestServer, number: string): Promise<PhoneInbox> {
  const response = await server.request('GET', `/sandbox/1/phones/${number}/messages`);
  assert.equal(response.status, 200, response.text);
  return response.json<PhoneInbox>();
}
