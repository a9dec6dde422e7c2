import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualClock } from '../../src/core/clock.js';
import { Metrics } from '../../src/core/metrics.js';
import { WebhookSender } from '../../src/core/outbox/webhook-sender.js';
import { SubscriptionMatcher } from '../../src/core/subscriptions/matcher.js';
import type { Store, Subscription } from '../../src/core/store/types.js';
import type { InboundSms } from '../../src/network/carrier.js';
import { InboundService } from '../../src/sms/inbound/inbound-service.js';
import { splitKeyword } from '../../src/sms/inbound/keyword.js';
import { WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { cleanupStores, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

const OUR_NUMBER = '385921004026';
const RECEIVED_AT = Date.UTC(2025, 2, 4, 10, 15, 30, 120);

function sms(accountId: string, overrides: Partial<InboundSms> = {}): InboundSms {
  return { accountId, from: '385916242493', to: OUR_NUMBER, text: 'quiz My answer is blue', smsCount: 1, receivedAt: RECEIVED_AT, ...overrides };
}

function inboundSubscription(accountId: string, id: string, url: string, overrides: Partial<Subscription> = {}): Subscription {
  return {
    accountId,
    subscriptionId: id,
    channel: 'SMS',
    events: ['INBOUND_MESSAGE'],
    profile: { profileId: `p-${id}`, webhook: { notifyUrl: url } },
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

function service(store: Store, clock = new ManualClock(T0)) {
  const metrics = new Metrics({ defaultMetrics: false });
  let queued = 0;
  const inbound = new InboundService({
    store,
    clock,
    metrics,
    log: pino({ level: 'silent' }),
    subscriptions: new SubscriptionMatcher({ store, clock }),
    onWebhooksQueued: () => queued++,
  });
  return { inbound, metrics, queuedCalls: () => queued };
}

describe('inbound keyword rule', () => {
  it('takes a leading alphanumeric word as the upper-cased keyword', () => {
    assert.deepEqual(splitKeyword('quiz My answer is blue'), { keyword: 'QUIZ', cleanText: 'My answer is blue' });
    assert.deepEqual(splitKeyword('  Stop  '), { keyword: 'STOP', cleanText: '' });
    assert.deepEqual(splitKeyword('čaj2 molim\nhvala '), { keyword: 'ČAJ2', cleanText: 'molim\nhvala' });
  });

  it('has no keyword when the text does not start with a plain word', () => {
    assert.deepEqual(splitKeyword('#1 hello'), { cleanText: '#1 hello' });
    assert.deepEqual(splitKeyword('hi, there'), { cleanText: 'hi, there' });
    assert.deepEqual(splitKeyword('   '), { cleanText: '' });
  });
});

for (const driver of storeDrivers()) {
  describe(`InboundService on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const pull = (accountId: string) => store().inbound.consume({ accountId, since: 0, limit: 100 });

    it('keeps a message nobody subscribed to for pulling', async () => {
      const { a } = await twoAccounts(store());
      await store().subscriptions.create(inboundSubscription(a.id, 'elsewhere', 'https://hooks.example.com/mo', { resources: [{ resource: '41790000000' }] }));
      const { inbound, metrics, queuedCalls } = service(store());
      await inbound.receive([sms(a.id)]);

      const { messages, pending } = await pull(a.id);
      assert.equal(pending, 0);
      assert.equal(messages.length, 1);
      const [message] = messages;
      assert.match(message!.messageId, /^\d{18}$/);
      assert.deepEqual({ ...message, messageId: 'x' }, {
        accountId: a.id,
        messageId: 'x',
        from: '385916242493',
        to: OUR_NUMBER,
        text: 'quiz My answer is blue',
        cleanText: 'My answer is blue',
        keyword: 'QUIZ',
        receivedAt: RECEIVED_AT,
        smsCount: 1,
      });
      assert.deepEqual(await store().outbox.listItems(a.id, undefined, 10), []);
      assert.equal(queuedCalls(), 0);
      assert.equal((await metrics.inboundReceived.get()).values[0]?.value, 1);
    });

    it('pushes to every matching subscription instead of keeping it pullable', async () => {
      const { a, b } = await twoAccounts(store());
      await store().subscriptions.create(
        inboundSubscription(a.id, 'one', 'https://one.example.com/mo', {
          profile: {
            profileId: 'P1',
            webhook: { notifyUrl: 'https://one.example.com/mo' },
            security: { authId: 'A1', type: 'BASIC', credentials: { username: 'u', password: 'p' } },
          },
        }),
      );
      await store().subscriptions.create(inboundSubscription(a.id, 'two', 'https://two.example.com/mo', { resources: [{ resource: OUR_NUMBER }] }));
      await store().subscriptions.create(inboundSubscription(b.id, 'other-account', 'https://b.example.com/mo'));
      const { inbound, queuedCalls } = service(store());
      await inbound.receive([sms(a.id), sms(a.id, { text: 'second' })]);

      assert.deepEqual(await pull(a.id), { messages: [], pending: 0 });
      const queued = (await store().outbox.listItems(a.id, 'pending', 10)).flatMap((item) =>
        (JSON.parse(item.payloads) as unknown[]).map((payload) => ({ ...item, payload })),
      );
      assert.equal(queued.length, 4);
      assert.deepEqual(queued.map((i) => i.url).sort(), [
        'https://one.example.com/mo',
        'https://one.example.com/mo',
        'https://two.example.com/mo',
        'https://two.example.com/mo',
      ]);
      const first = queued.find((i) => i.subscriptionId === 'one' && (i.payload as { text: string }).text !== 'second')!;
      assert.equal(first.format, 'sms-mo');
      assert.deepEqual(first.security, { type: 'BASIC', username: 'u', password: 'p' });
      const payload = first.payload as Record<string, unknown>;
      assert.match(String(payload.messageId), /^\d{18}$/);
      assert.deepEqual({ ...payload, messageId: 'x' }, {
        messageId: 'x',
        from: '385916242493',
        to: OUR_NUMBER,
        text: 'quiz My answer is blue',
        cleanText: 'My answer is blue',
        keyword: 'QUIZ',
        receivedAt: '2025-03-04T10:15:30.120+0000',
        smsCount: 1,
        price: { pricePerMessage: 0, currency: 'EUR' },
      });
      assert.equal(queuedCalls(), 1, 'one nudge per receive() call');
      assert.deepEqual(await store().outbox.listItems(b.id, undefined, 10), []);
    });

    it('reaches the subscriber over HTTP with the MO batch body', async () => {
      const { a } = await twoAccounts(store());
      const receiver = await WebhookReceiver.start();
      const clock = new ManualClock(T0);
      const sender = new WebhookSender({
        store: store(),
        clock,
        metrics: new Metrics({ defaultMetrics: false }),
        log: pino({ level: 'silent' }),
        retryMs: 1000,
        maxAttempts: 3,
        timeoutMs: 2000,
        pollMs: 1000,
      });
      try {
        await store().subscriptions.create(inboundSubscription(a.id, 'live', receiver.url));
        const { inbound } = service(store(), clock);
        sender.start();
        await inbound.receive([sms(a.id, { text: 'Hello there' })]);
        sender.nudge();
        await receiver.waitForPosts(1);
        const body = receiver.posts[0]!.body as { results: Array<Record<string, unknown>>; messageCount: number; pendingMessageCount: number };
        assert.equal(body.messageCount, 1);
        assert.equal(body.pendingMessageCount, 0);
        assert.equal(body.results[0]!.text, 'Hello there');
        assert.equal(body.results[0]!.keyword, 'HELLO');
        assert.equal(body.results[0]!.cleanText, 'there');
      } finally {
        await sender.stop();
        await receiver.close();
      }
    });
  });
}
