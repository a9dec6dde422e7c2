import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signalPayloads } from '../../src/console/changes/node-relay.js';
import type { ChangeBatch } from '../../src/console/changes/change-set.js';
import { EventStreamClient, type FeedEvent } from '../helpers/event-stream.js';
import { eventually, startTestServer, testStoreKind, type TestServer } from '../helpers/server.js';

const names = (key: string, id: string) => (event: FeedEvent) =>
  event.event === 'changes' && Array.isArray(event.data[key]) && event.data[key].includes(id);

describe('signals between nodes fit PostgreSQL NOTIFY', () => {
  it('splits a batch by account and gives up id lists too long for one signal', () => {
    const batch: ChangeBatch = [
      ['a', { messages: Array.from({ length: 1000 }, (_, i) => 1_000_000_000 + i), webhooks: true }],
      ['b', { phones: ['41793026727'], verifications: ['APP'] }],
      ...Array.from({ length: 200 }, (_, i): [string, { calls: string[] }] => [`account-${i}`, { calls: [`call-${i}`] }]),
    ];
    const payloads = signalPayloads('node-1', batch);
    assert.ok(payloads.length > 1);
    for (const payload of payloads) assert.ok(Buffer.byteLength(payload) <= 7_500, `${Buffer.byteLength(payload)} bytes`);
    const entries = payloads.flatMap((payload) => (JSON.parse(payload) as { node: string; batch: ChangeBatch }).batch);
    assert.deepEqual(entries[0], ['a', { messagesOverflow: true, webhooks: true }]);
    assert.deepEqual(entries[1], ['b', { phones: ['41793026727'], verifications: ['APP'] }]);
    assert.equal(entries.length, 202);
  });
});

describe('the live feed across nodes sharing a PostgreSQL database', { skip: testStoreKind() === 'postgres' ? false : 'runs on PostgreSQL (SWITCHBOARD_TEST_STORE=postgres)' }, () => {
  let first: TestServer;
  let second: TestServer;
  before(async () => {
    first = await startTestServer({ env: { SWITCHBOARD_SANDBOX_LATENCY_MS: '300' }, keepData: true });
    // The same database, schema and key: a second node of one deployment.
    second = await startTestServer({ env: first.env });
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  it("feeds a console on one node with the changes both threads of another node make", async () => {
    assert.equal(first.ctx.changes.flag.active, false, 'nobody listens yet');
    const stream = await EventStreamClient.open(second.url, second.apiKey);
    try {
      await stream.next((e) => e.event === 'ready');
      await eventually(async () => (first.ctx.changes.flag.active ? true : undefined));

      const sent = await first.request('POST', '/sms/3/messages', { body: { messages: [{ destinations: [{ to: '41793026950' }], content: { text: 'hi' } }] } });
      assert.equal(sent.status, 200, sent.text);
      const messageId = sent.json().messages[0].messageId as string;
      const row = async () => {
        const rows = (await second.request('GET', '/switchboard/1/messages?limit=10')).json().results as Array<Record<string, any>>;
        return rows.find((r) => r.messageId === messageId);
      };
      const { seq } = await eventually(row);
      let from = 0;
      for (;;) {
        const event = await stream.next(names('messages', seq), 5000, from);
        from = stream.events.indexOf(event) + 1;
        if ((await row())?.status.groupName === 'DELIVERED') break;
      }
      await stream.next(names('phones', '41793026950'));
    } finally {
      stream.close();
    }
  });
});
