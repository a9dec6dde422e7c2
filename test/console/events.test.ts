import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { otherAccount } from '../helpers/accounts.js';
import { EventStreamClient, type FeedEvent } from '../helpers/event-stream.js';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';
import { createFlow, sendPin } from '../verify/verify-fixture.js';

const names = (key: string, id: string) => (event: FeedEvent) =>
  event.event === 'changes' && Array.isArray(event.data[key]) && event.data[key].includes(id);

async function sendSms(server: TestServer, to: string | string[], extra: Record<string, unknown> = {}, key?: string): Promise<string[]> {
  const destinations = [to].flat().map((number) => ({ to: number }));
  const response = await server.request('POST', '/sms/3/messages', { key, body: { messages: [{ sender: 'ACME', destinations, content: { text: 'Hello' }, ...extra }] } });
  assert.equal(response.status, 200, response.text);
  return (response.json().messages as Array<{ messageId: string }>).map((m) => m.messageId);
}

/** The message's row in the console list: its seq and status. */
async function rowOf(server: TestServer, messageId: string, key?: string): Promise<{ seq: string; status: { groupName: string } }> {
  return eventually(async () => {
    const rows = (await server.request('GET', '/switchboard/1/messages?limit=50', { key })).json().results as Array<Record<string, any>>;
    return rows.find((row) => row.messageId === messageId) as { seq: string; status: { groupName: string } } | undefined;
  });
}

for (const engine of ['thread', 'inline'] as const) {
  describe(`GET /switchboard/1/events with the ${engine} engine`, () => {
    let server: TestServer;
    let receiver: WebhookReceiver;
    before(async () => {
      // A latency keeps acceptance, submit and the final status apart in time, each its own write.
      server = await startTestServer({ env: { SWITCHBOARD_ENGINE: engine, SWITCHBOARD_SANDBOX_LATENCY_MS: '300' } });
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    it('costs nothing until a console listens: the flag is up only while one is connected', async () => {
      assert.equal(server.ctx.changes.flag.active, false);
      const stream = await EventStreamClient.open(server.url, server.apiKey);
      await stream.next((e) => e.event === 'ready');
      assert.equal(server.ctx.changes.flag.active, true);
      stream.close();
      await eventually(async () => (server.ctx.changes.flag.active ? undefined : true));
    });

    it('names an SMS when the API accepts it and again when the engine gives its final status, with its phone and webhook', async () => {
      const stream = await EventStreamClient.open(server.url, server.apiKey);
      try {
        assert.equal(stream.response.status, 200);
        assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
        const ready = await stream.next(() => true);
        assert.deepEqual(ready, { event: 'ready', data: {} });

        const [messageId] = await sendSms(server, '41793026901', { webhooks: { delivery: { url: receiver.url } } });
        const { seq } = await rowOf(server, messageId!);
        const accepted = await stream.next(names('messages', seq));
        assert.equal(typeof accepted.data.messages[0], 'string');

        // Each later event naming it is checked against the store until one comes after the final status.
        let from = stream.events.indexOf(accepted) + 1;
        for (;;) {
          const event = await stream.next(names('messages', seq), 5000, from);
          from = stream.events.indexOf(event) + 1;
          if ((await rowOf(server, messageId!)).status.groupName === 'DELIVERED') break;
        }
        await stream.next(names('phones', '41793026901'));
        await stream.next((e) => e.event === 'changes' && e.data.webhooks === true);
        for (const event of stream.events.filter((e) => e.event === 'changes')) {
          assert.deepEqual(Object.keys(event.data).filter((k) => !['messages', 'phones', 'calls', 'webhooks', 'verifications'].includes(k)), []);
        }
      } finally {
        stream.close();
      }
    });

    it("gives each console only its own account's changes", async () => {
      const other = await otherAccount(server.ctx.store, Date.now());
      const mine = await EventStreamClient.open(server.url, server.apiKey);
      const theirs = await EventStreamClient.open(server.url, other.key);
      try {
        await mine.next((e) => e.event === 'ready');
        await theirs.next((e) => e.event === 'ready');
        const [messageId] = await sendSms(server, '41793026902');
        const { seq } = await rowOf(server, messageId!);
        await mine.next(names('messages', seq));
        const [theirMessage] = await sendSms(server, '41793026903', {}, other.key);
        const theirSeq = (await rowOf(server, theirMessage!, other.key)).seq;
        await theirs.next(names('messages', theirSeq));
        await mine.next(names('phones', '41793026902'));
        for (const event of theirs.events) {
          assert.ok(!JSON.stringify(event.data).includes(`"${seq}"`), 'their stream never names my message');
          assert.ok(!JSON.stringify(event.data).includes('41793026902'), 'nor my phone');
        }
        assert.ok(!mine.events.some(names('messages', theirSeq)), 'mine never names theirs');
      } finally {
        mine.close();
        theirs.close();
      }
    });

    it('names the 2FA application of a PIN and the call that speaks a voice PIN', async () => {
      const stream = await EventStreamClient.open(server.url, server.apiKey);
      try {
        await stream.next((e) => e.event === 'ready');
        const { applicationId, messageId } = await createFlow(server);
        const sent = await sendPin(server, { applicationId, messageId, to: '41793026904' }, '/2fa/2/pin/voice');
        assert.equal(sent.status, 200, sent.text);
        await stream.next(names('verifications', applicationId));
        const call = await stream.next((e) => e.event === 'changes' && Array.isArray(e.data.calls));
        assert.equal(typeof call.data.calls[0], 'string');
      } finally {
        stream.close();
      }
    });

    it('says a list overflowed instead of naming more than 1000 messages', async () => {
      const stream = await EventStreamClient.open(server.url, server.apiKey);
      try {
        await stream.next((e) => e.event === 'ready');
        await sendSms(server, Array.from({ length: 1001 }, (_, i) => `4179310${String(i).padStart(4, '0')}`));
        const overflow = await stream.next((e) => e.event === 'changes' && e.data.messagesOverflow === true);
        assert.equal(overflow.data.messages, undefined);
      } finally {
        stream.close();
      }
    });

    it('refuses a request without a valid key, and ends the stream when the server closes', async () => {
      const refused = await EventStreamClient.open(server.url, 'not-a-key-at-all-really');
      assert.equal(refused.response.status, 401);
      assert.deepEqual(Object.keys((await refused.response.json()) as object), ['requestError']);
      const stream = await EventStreamClient.open(server.url, server.apiKey);
      await stream.next((e) => e.event === 'ready');
      await server.close();
      await stream.ended();
      server = await startTestServer({ env: { SWITCHBOARD_ENGINE: engine } });
    });
  });
}
