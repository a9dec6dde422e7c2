import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { otherAccount } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, TIME } from '../sms/read-fixtures.js';
import { AGENT, seedRcs, USER } from '../rcs/rcs-fixtures.js';

const INBOUND_KEYS = [
  'sender', 'to', 'integrationType', 'receivedAt', 'interactionType', 'rcsCount', 'messageId',
  'message', 'price', 'conversation', 'platform',
];

describe('POST /sandbox/1/rcs/inbound', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let accountId: string;
  before(async () => {
    server = await startTestServer();
    receiver = await WebhookReceiver.start();
    accountId = await defaultAccountId(server);
    const created = await server.request('POST', '/subscriptions/1/subscription/RCS', {
      body: { subscriptionId: 'rcs-mo', events: ['INBOUND_MESSAGE'], resources: [AGENT], profile: { webhook: { notifyUrl: `${receiver.url}?mo` } } },
    });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const inject = async (body: Record<string, unknown>, key?: string) => {
    const response = await server.request('POST', '/sandbox/1/rcs/inbound', { body: { from: `+${USER}`, to: AGENT, ...body }, key });
    assert.equal(response.status, 200, response.text);
    return response.json();
  };
  /** The webhook body that carried inbound message `messageId`. */
  const pushed = (messageId: string) =>
    eventually(async () => {
      const post = receiver.posts.find((p) => (p.body.results as Array<{ messageId: string }>).some((r) => r.messageId === messageId));
      return post?.body as { results: Array<Record<string, any>>; messageCount: number; pendingMessageCount: number } | undefined;
    });

  it("pushes a text to the sender's INBOUND_MESSAGE subscription in Infobip's RCS inbound shape", async () => {
    const answer = await inject({ text: 'Stop sending me offers' });
    assert.equal(answer.pushed, 1);
    assert.equal(answer.from, USER, 'the number as stored, without +');
    assert.equal(answer.to, AGENT);
    assert.match(answer.receivedAt, TIME);
    assert.deepEqual(answer.message, { type: 'TEXT', text: 'Stop sending me offers' });

    const body = await pushed(answer.messageId);
    assert.equal(body.messageCount, 1);
    assert.equal(body.pendingMessageCount, 0);
    const [message] = body.results;
    assert.deepEqual(message, {
      sender: USER,
      to: AGENT,
      integrationType: 'RCS',
      receivedAt: answer.receivedAt,
      interactionType: 'BASIC_MESSAGE',
      rcsCount: 1,
      keyword: 'STOP',
      messageId: answer.messageId,
      message: { type: 'TEXT', text: 'Stop sending me offers' },
      price: { pricePerMessage: 0, currency: 'EUR' },
      conversation: { canInitiate: true, id: null },
      platform: {},
    });
    assert.match(answer.messageId, /^\d{18}$/);
  });

  it('pushes a tapped suggestion, paired with the message the sender last sent this user', async () => {
    const now = Date.now();
    const [, latest] = await seedRcs(server.ctx.store, accountId, now, [
      { sentAt: now, final: { status: DELIVERED, at: now } },
      { callbackData: 'order=42', applicationId: 'app-1', entityId: 'ent-1', campaignReferenceId: 'camp-1', sentAt: now, final: { status: DELIVERED, at: now } },
    ]);
    const answer = await inject({ suggestion: { text: 'Thanks', postbackData: 'thanks' } });
    assert.equal(answer.pairedMessageId, latest!.messageId);
    const [message] = (await pushed(answer.messageId)).results;
    assert.deepEqual(Object.keys(message!).sort(), [...INBOUND_KEYS, 'pairedMessageId', 'callbackData', 'campaignReferenceId'].sort());
    assert.deepEqual(message!.message, { type: 'SUGGESTION', text: 'Thanks', postbackData: 'thanks' });
    assert.equal(message!.pairedMessageId, latest!.messageId);
    assert.equal(message!.callbackData, 'order=42');
    assert.equal(message!.campaignReferenceId, 'camp-1');
    assert.deepEqual(message!.platform, { entityId: 'ent-1', applicationId: 'app-1' });
    assert.equal(message!.interactionType, 'BASIC_MESSAGE');
  });

  it('pushes a shared location', async () => {
    const answer = await inject({ from: '385910000099', location: { latitude: 37.7749, longitude: -122.4194 } });
    const [message] = (await pushed(answer.messageId)).results;
    assert.deepEqual(Object.keys(message!).sort(), [...INBOUND_KEYS].sort(), 'no paired message for a user never written to');
    assert.deepEqual(message!.message, { type: 'LOCATION', latitude: 37.7749, longitude: -122.4194 });
    assert.equal(message!.sender, '385910000099');
  });

  it("drops a message to a sender nobody subscribed for, and another account's subscriptions never get it", async () => {
    const toOther = await inject({ to: 'OtherAgent', text: 'hello' });
    assert.equal(toOther.pushed, 0);
    const other = await otherAccount(server.ctx.store, Date.now());
    const fromOther = await inject({ text: 'hello from the other account' }, other.key);
    assert.equal(fromOther.pushed, 0);
  });

  it('requires exactly one of text, suggestion and location, and checks each', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const response = await server.request('POST', '/sandbox/1/rcs/inbound', { body: { from: USER, to: AGENT, ...body } });
      assert.equal(response.status, 400, JSON.stringify(body));
      return Object.keys(response.json().requestError.serviceException.validationErrors);
    };
    assert.deepEqual(await bad({}), ['text']);
    assert.deepEqual(await bad({ text: 'hi', location: { latitude: 1, longitude: 2 } }), ['location']);
    assert.deepEqual(await bad({ text: 'hi', suggestion: { text: 'a', postbackData: 'b' }, location: { latitude: 1, longitude: 2 } }), ['suggestion', 'location']);
    assert.ok((await bad({ location: { latitude: 91, longitude: 0 } })).some((p) => p.startsWith('location')));
    assert.ok((await bad({ suggestion: { text: 'Thanks' } })).some((p) => p.startsWith('suggestion')));
    assert.ok((await bad({ text: '' })).includes('text'));
    assert.ok((await bad({ from: 'not-a-number', text: 'hi' })).includes('from'));
  });
});
