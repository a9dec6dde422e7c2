import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { otherAccount } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, seedMessages, TIME, UNDELIVERABLE } from '../sms/read-fixtures.js';
import { AGENT, rcsFields, seedRcs, USER } from '../rcs/rcs-fixtures.js';

const NOT_FOUND = { requestError: { serviceException: { messageId: 'NOT_FOUND', text: 'Not found' } } };

describe('POST /sandbox/1/rcs/messages/{messageId}/seen', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let accountId: string;
  before(async () => {
    server = await startTestServer();
    receiver = await WebhookReceiver.start();
    accountId = await defaultAccountId(server);
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const delivered = (overrides = {}) => {
    const now = Date.now();
    return seedRcs(server.ctx.store, accountId, now, [{ sentAt: now, final: { status: DELIVERED, at: now }, ...overrides }]);
  };
  const seen = (messageId: string, key?: string | null) => server.request('POST', `/sandbox/1/rcs/messages/${messageId}/seen`, { key });
  const postsTo = (path: string) => receiver.posts.filter((p) => p.path === path);
  /** The POSTs to `path` once there are `count` of them. */
  const waitFor = (path: string, count: number) =>
    eventually(async () => (postsTo(path).length >= count ? postsTo(path) : undefined));

  it("sends the seen report to the message's seen URL, in Infobip's shape", async () => {
    const [message] = await delivered({
      webhook: { intermediateReport: false, notify: false, seenUrl: `${receiver.url}?seen-url` },
      applicationId: 'app-1',
      entityId: 'ent-1',
      campaignReferenceId: 'camp-1',
    });
    const response = await seen(message!.messageId);
    assert.equal(response.status, 200, response.text);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['messageId', 'seenAt', 'pushed']);
    assert.equal(body.messageId, message!.messageId);
    assert.match(body.seenAt, TIME);
    assert.equal(body.pushed, 1);

    const [post] = await waitFor('/hook?seen-url', 1);
    assert.equal(post!.method, 'POST');
    assert.deepEqual(post!.body, {
      results: [
        {
          messageId: message!.messageId,
          from: USER,
          to: AGENT,
          sentAt: formatInfobipTime(message!.sentAt!),
          seenAt: body.seenAt,
          applicationId: 'app-1',
          entityId: 'ent-1',
          campaignReferenceId: 'camp-1',
        },
      ],
    });
  });

  it('without a seen URL, goes to the RCS SEEN subscriptions of the sender, again on every call', async () => {
    for (const [subscriptionId, resources, events] of [
      ['seen-demo', [AGENT], ['SEEN']],
      ['seen-other', ['OtherAgent'], ['SEEN']],
      ['delivery-demo', [AGENT], ['DELIVERY']],
    ] as const) {
      const created = await server.request('POST', '/subscriptions/1/subscription/RCS', {
        body: { subscriptionId, events, resources, profile: { webhook: { notifyUrl: `${receiver.url}?${subscriptionId}` } } },
      });
      assert.equal(created.status, 201, created.text);
    }
    const [message] = await delivered();
    const first = await seen(message!.messageId);
    assert.equal(first.json().pushed, 1);
    await waitFor('/hook?seen-demo', 1);
    const second = await seen(message!.messageId);
    assert.equal(second.status, 200, 'a message seen again is taken again');

    const posts = await waitFor('/hook?seen-demo', 2);
    assert.equal(posts.length, 2);
    assert.deepEqual(posts.map((p) => (p.body.results as Array<{ seenAt: string }>)[0]!.seenAt), [first.json().seenAt, second.json().seenAt]);
    assert.equal(postsTo('/hook?seen-other').length, 0);
    assert.equal(postsTo('/hook?delivery-demo').length, 0);
  });

  it('takes a message sent and still awaiting its delivery report, and answers pushed 0 when nothing listens', async () => {
    const now = Date.now();
    const [message] = await seedRcs(server.ctx.store, accountId, now, [{ sender: 'QuietAgent', sentAt: now }]);
    const response = await seen(message!.messageId);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.json().pushed, 0);
  });

  it('refuses a message that never reached the phone with 400 naming messageId', async () => {
    const now = Date.now();
    const [queued, failed] = await seedRcs(server.ctx.store, accountId, now, [{}, { sentAt: now, final: { status: UNDELIVERABLE, errorId: 7002, at: now } }]);
    for (const [message, why] of [
      [queued!, 'has not been sent yet'],
      [failed!, 'was not delivered'],
    ] as const) {
      const response = await seen(message.messageId);
      assert.equal(response.status, 400);
      assert.deepEqual(response.json().requestError.serviceException.validationErrors, {
        messageId: [`the message ${why}, so it cannot be seen`],
      });
    }
  });

  it("answers 404 in the legacy envelope for an unknown id, an SMS, an SMS failover and another account's message", async () => {
    const now = Date.now();
    const [sms, failover] = await seedMessages(server.ctx.store, accountId, now, [
      { sentAt: now, final: { status: DELIVERED, at: now } },
      { api: 'rcs2', sentAt: now, final: { status: DELIVERED, at: now }, extras: { failoverOf: 'some-rcs-message' } },
    ]);
    const other = await otherAccount(server.ctx.store, now);
    const [theirs] = await seedRcs(server.ctx.store, other.accountId, now, [{ sentAt: now, final: { status: DELIVERED, at: now } }]);
    const [mine] = await delivered();
    for (const messageId of ['no-such-message', sms!.messageId, failover!.messageId, theirs!.messageId]) {
      const response = await seen(messageId);
      assert.equal(response.status, 404, messageId);
      assert.deepEqual(response.json(), NOT_FOUND);
    }
    assert.equal((await seen(mine!.messageId, other.key)).status, 404, 'nor can another account see mine');
    assert.equal((await seen(theirs!.messageId, other.key)).status, 200);
  });

  it('takes an empty JSON body as no body, and requires an API key', async () => {
    const [message] = await delivered({ ...rcsFields() });
    const empty = await server.request('POST', `/sandbox/1/rcs/messages/${message!.messageId}/seen`, {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(empty.status, 200, empty.text);
    assert.equal((await seen(message!.messageId, null)).status, 401);
  });
});
