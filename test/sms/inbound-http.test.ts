import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PUSHED_NUMBER = '385921004026';
const PULLED_NUMBER = '385921004027';

describe('inbound SMS: pushed to a subscription, else pulled', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    server = await startTestServer();
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const inject = async (to: string, text: string) => {
    const response = await server.request('POST', '/sandbox/1/sms/inbound', { body: { from: '385916242493', to, text } });
    assert.equal(response.status, 200, response.text);
  };

  it('pushes a message to the subscription of its number, signed, and never offers it for pulling', async () => {
    const created = await server.request('POST', '/subscriptions/1/subscription/SMS', {
      body: {
        subscriptionId: 'mo-push',
        events: ['INBOUND_MESSAGE'],
        resources: [PUSHED_NUMBER],
        profile: {
          profileId: 'MO',
          webhook: { notifyUrl: receiver.url },
          security: { authId: 'MO-HMAC', type: 'HMAC', credentials: { secretKey: 's3cret', algorithm: 'HMAC_SHA_256' } },
        },
      },
    });
    assert.equal(created.status, 201, created.text);

    await inject(PUSHED_NUMBER, 'Stop sending me offers');
    await receiver.waitForPosts(1);
    const post = receiver.posts[0]!;
    const signature = createHmac('sha256', 's3cret').update(post.raw).digest('hex');
    assert.equal(post.headers['x-switchboard-signature'], `sha256=${signature}`);
    const body = post.body as { results: Array<Record<string, unknown>>; messageCount: number; pendingMessageCount: number };
    assert.equal(body.messageCount, 1);
    assert.equal(body.pendingMessageCount, 0);
    const [message] = body.results;
    assert.equal(message!.to, PUSHED_NUMBER);
    assert.equal(message!.from, '385916242493');
    assert.equal(message!.text, 'Stop sending me offers');
    assert.equal(message!.keyword, 'STOP');
    assert.equal(message!.cleanText, 'sending me offers');
    assert.deepEqual(message!.price, { pricePerMessage: 0, currency: 'EUR' });

    const inbox = await server.request('GET', '/sms/1/inbox/reports');
    assert.equal(inbox.status, 200);
    assert.deepEqual(inbox.json().results, []);
  });

  it('keeps a message for a number without subscription for GET /sms/1/inbox/reports', async () => {
    await inject(PULLED_NUMBER, 'hello');
    const inbox = await server.request('GET', '/sms/1/inbox/reports');
    assert.equal(inbox.status, 200);
    const { results, messageCount, pendingMessageCount } = inbox.json();
    assert.equal(messageCount, 1);
    assert.equal(pendingMessageCount, 0);
    assert.equal(results[0].to, PULLED_NUMBER);
    assert.equal(results[0].keyword, 'HELLO');
    assert.equal(results[0].cleanText, '');
    assert.equal(receiver.posts.length, 1, 'nothing more was pushed');
  });
});
