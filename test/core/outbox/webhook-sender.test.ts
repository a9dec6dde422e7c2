import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { after, afterEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualClock } from '../../../src/core/clock.js';
import { Metrics } from '../../../src/core/metrics.js';
import { WebhookSender, type WebhookSenderDeps } from '../../../src/core/outbox/webhook-sender.js';
import type { OutboxItemInput, Store } from '../../../src/core/store/types.js';
import { cleanupStores, storeDrivers, storePerTest, T0, twoAccounts } from '../../helpers/stores.js';
import { eventually, WebhookReceiver, type Answer, type Answerer } from './webhook-receiver.js';

after(cleanupStores);

const RETRY_MS = 1000;

/** Running senders and receivers, stopped after each test (before its store closes). */
const running: Array<{ stop(): Promise<void> }> = [];
async function stopRunning(): Promise<void> {
  for (const thing of running.splice(0).reverse()) await thing.stop();
}

async function receiver(answers: Answer[] | Answerer = []): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start(answers);
  running.push({ stop: () => r.close() });
  return r;
}

function startSender(store: Store, clock: ManualClock, overrides: Partial<WebhookSenderDeps> = {}) {
  const metrics = new Metrics({ defaultMetrics: false });
  const sender = new WebhookSender({
    store,
    clock,
    metrics,
    log: pino({ level: 'silent' }),
    retryMs: RETRY_MS,
    maxAttempts: 5,
    timeoutMs: 2000,
    pollMs: 5,
    ...overrides,
  });
  sender.start();
  running.push(sender);
  return { sender, metrics };
}

function items(accountId: string, url: string, count: number, overrides: Partial<OutboxItemInput> = {}): OutboxItemInput[] {
  return Array.from({ length: count }, (_, i) => ({
    accountId,
    url,
    format: 'sms-dlr',
    payload: { messageId: `m-${i}-${randomUUID()}` },
    createdAt: T0,
    dueAt: T0,
    ...overrides,
  }));
}

/** Events of one call, in the order they happen, as the outbox keeps them: one stream per call. */
function callEvents(accountId: string, url: string, callId: string, types: string[]): OutboxItemInput[] {
  return types.map((type) => ({
    accountId,
    url,
    format: 'call-event',
    payload: { type, callId, callsConfigurationId: 'conf-1', timestamp: '2025-01-01T00:00:00.000+0000', properties: {} },
    stream: callId,
    createdAt: T0,
    dueAt: T0,
  }));
}

/** [callId, type] of each POST to `r` for the calls given, in arrival order. */
const eventPosts = (r: WebhookReceiver, ...callIds: string[]) =>
  r.posts.filter((p) => callIds.includes(p.body.callId as string)).map((p) => [p.body.callId, p.body.type]);

async function counterValue(metrics: Metrics, name: 'webhookPosts' | 'webhookItems', outcome: string): Promise<number> {
  const metric = await metrics[name].get();
  return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

for (const driver of storeDrivers()) {
  describe(`WebhookSender on ${driver.name}`, { skip: driver.skip }, () => {
    // Registered first so it runs before storePerTest closes the store.
    afterEach(stopRunning);
    const store = storePerTest(driver);

    const itemStates = async (accountId: string) => store().outbox.listItems(accountId, undefined, 1000);
    const settledItem = (accountId: string, attempts: number) =>
      eventually(async () => {
        const [item] = await itemStates(accountId);
        return item && item.attempts === attempts ? item : undefined;
      });

    it('batches up to 100 items per POST with JSON headers and the {results} body', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver();
      const enqueued = items(a.id, r.url, 250);
      await store().outbox.enqueue(enqueued);
      const { metrics } = startSender(store(), new ManualClock(T0));

      await r.waitForPosts(3);
      const sizes = r.posts.map((p) => (p.body.results as unknown[]).length).sort((x, y) => y - x);
      assert.deepEqual(sizes, [100, 100, 50]);
      for (const post of r.posts) {
        assert.equal(post.method, 'POST');
        assert.equal(post.path, '/hook');
        assert.equal(post.headers['content-type'], 'application/json');
        assert.equal(post.headers['user-agent'], 'Switchboard');
        assert.equal(post.headers.authorization, undefined);
        assert.deepEqual(Object.keys(post.body), ['results']);
      }
      const received = r.posts.flatMap((p) => p.body.results as unknown[]);
      assert.deepEqual(new Set(received.map((x) => JSON.stringify(x))), new Set(enqueued.map((i) => JSON.stringify(i.payload))));

      const delivered = await eventually(async () => {
        const list = await store().outbox.listItems(a.id, 'delivered', 1000);
        return list.reduce((sum, item) => sum + item.payloadCount, 0) === 250 ? list : undefined;
      });
      assert.ok(delivered.every((item) => item.attempts === 1));
      const attempts = await store().outbox.listAttempts(a.id, 10);
      assert.equal(attempts.length, 3);
      assert.deepEqual(attempts.map((x) => x.payloadCount).sort((x, y) => y - x), [100, 100, 50]);
      assert.ok(attempts.every((x) => x.outcome === 'delivered' && x.httpStatus === 200 && x.attemptNo === 1));
      assert.equal(await counterValue(metrics, 'webhookPosts', 'delivered'), 3);
      assert.equal(await counterValue(metrics, 'webhookItems', 'delivered'), 250);
    });

    it('fills a POST with items enqueued apart without splitting one, and settles them together', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver();
      for (let round = 0; round < 3; round++) await store().outbox.enqueue(items(a.id, r.url, 40));
      startSender(store(), new ManualClock(T0));

      await r.waitForPosts(2);
      assert.deepEqual(r.posts.map((p) => (p.body.results as unknown[]).length).sort((x, y) => y - x), [80, 40]);
      const attempts = await eventually(async () => {
        const list = await store().outbox.listAttempts(a.id, 10);
        return list.length === 2 ? list : undefined;
      });
      assert.deepEqual(attempts.map((x) => [x.itemIds.length, x.payloadCount]).sort((x, y) => y[1]! - x[1]!), [[2, 80], [1, 40]]);
      const settled = await eventually(async () => {
        const list = await store().outbox.listItems(a.id, 'delivered', 10);
        return list.length === 3 ? list : undefined;
      });
      assert.deepEqual(settled.map((item) => item.payloadCount), [40, 40, 40]);
    });

    it('posts inbound messages with messageCount and pendingMessageCount, separately per URL', async () => {
      const { a } = await twoAccounts(store());
      const mo = await receiver();
      const dlr = await receiver();
      const moItems = items(a.id, mo.url, 2, { format: 'sms-mo' });
      await store().outbox.enqueue([...moItems, ...items(a.id, dlr.url, 1)]);
      startSender(store(), new ManualClock(T0));

      await mo.waitForPosts(1);
      await dlr.waitForPosts(1);
      assert.deepEqual(mo.posts[0]!.body, {
        results: moItems.map((i) => i.payload),
        messageCount: 2,
        pendingMessageCount: 0,
      });
      assert.deepEqual(Object.keys(dlr.posts[0]!.body), ['results']);
    });

    it('authenticates with BASIC credentials and signs with HMAC over the raw body', async () => {
      const { a } = await twoAccounts(store());
      const basic = await receiver();
      const hmac256 = await receiver();
      const hmac512 = await receiver();
      await store().outbox.enqueue([
        ...items(a.id, basic.url, 1, { security: { type: 'BASIC', username: 'user1', password: 'p@ss:wörd' } }),
        ...items(a.id, hmac256.url, 3, { security: { type: 'HMAC', secret: 'topsecret' } }),
        ...items(a.id, hmac512.url, 1, { security: { type: 'HMAC', secret: 'other', algorithm: 'HMAC_SHA_512' } }),
      ]);
      startSender(store(), new ManualClock(T0));
      await Promise.all([basic.waitForPosts(1), hmac256.waitForPosts(1), hmac512.waitForPosts(1)]);

      const expectedBasic = `Basic ${Buffer.from('user1:p@ss:wörd', 'utf8').toString('base64')}`;
      assert.equal(basic.posts[0]!.headers.authorization, expectedBasic);
      assert.equal(basic.posts[0]!.headers['x-switchboard-signature'], undefined);

      const signed = hmac256.posts[0]!;
      assert.equal((signed.body.results as unknown[]).length, 3);
      const expected256 = createHmac('sha256', 'topsecret').update(signed.raw).digest('hex');
      assert.equal(signed.headers['x-switchboard-signature'], `sha256=${expected256}`);
      assert.equal(signed.headers.authorization, undefined);

      const expected512 = createHmac('sha512', 'other').update(hmac512.posts[0]!.raw).digest('hex');
      assert.equal(hmac512.posts[0]!.headers['x-switchboard-signature'], `sha512=${expected512}`);
    });

    it('retries after retryMs + retryMs × n² (n = retries so far) and delivers on the third attempt', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver([500, 503, 200]);
      await store().outbox.enqueue(items(a.id, r.url, 2));
      const clock = new ManualClock(T0);
      const { sender, metrics } = startSender(store(), clock);

      await r.waitForPosts(1);
      const first = await settledItem(a.id, 1);
      assert.equal(first.state, 'pending');
      assert.equal(first.dueAt, T0 + RETRY_MS, 'the first retry waits retryMs');
      assert.equal(first.lastError, 'HTTP 500');

      clock.set(first.dueAt);
      sender.nudge();
      await r.waitForPosts(2);
      const second = await settledItem(a.id, 2);
      assert.equal(second.state, 'pending');
      assert.equal(second.dueAt, first.dueAt + RETRY_MS + RETRY_MS * 1);

      clock.set(second.dueAt);
      sender.nudge();
      await r.waitForPosts(3);
      const third = await settledItem(a.id, 3);
      assert.equal(third.state, 'delivered');
      assert.equal(r.posts.length, 3);
      assert.deepEqual(r.posts[2]!.body, r.posts[0]!.body);

      const attempts = await store().outbox.listAttempts(a.id, 10);
      assert.deepEqual(
        attempts.map((x) => [x.attemptNo, x.httpStatus, x.outcome, x.payloadCount, x.startedAt]),
        [
          [3, 200, 'delivered', 2, second.dueAt],
          [2, 503, 'retry', 2, first.dueAt],
          [1, 500, 'retry', 2, T0],
        ],
      );
      assert.equal(await counterValue(metrics, 'webhookPosts', 'retry'), 2);
      assert.equal(await counterValue(metrics, 'webhookItems', 'delivered'), 2);
    });

    it('posts call events one per POST, the event itself as the JSON body', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver();
      const [started, ringing] = callEvents(a.id, r.url, 'call-1', ['CALL_STARTED', 'CALL_RINGING']);
      const { stream: _stream, ...streamless } = callEvents(a.id, r.url, 'call-2', ['CALL_RECEIVED'])[0]!;
      await store().outbox.enqueue([started!, ringing!, streamless]);
      startSender(store(), new ManualClock(T0));

      await r.waitForPosts(3);
      for (const post of r.posts) {
        assert.equal(post.headers['content-type'], 'application/json');
        assert.equal(post.raw, JSON.stringify(JSON.parse(post.raw)), 'one JSON value, no envelope');
      }
      const bodies = r.posts.map((p) => p.body);
      assert.deepEqual(new Set(bodies.map((b) => JSON.stringify(b))), new Set([started, ringing, streamless].map((i) => JSON.stringify(i.payload))));
      const attempts = await eventually(async () => {
        const list = await store().outbox.listAttempts(a.id, 10);
        return list.length === 3 ? list : undefined;
      });
      assert.ok(attempts.every((x) => x.itemIds.length === 1 && x.payloadCount === 1));
    });

    it("posts one call's events in order, holding them behind a retried head while another call proceeds", async () => {
      const { a } = await twoAccounts(store());
      let headFailures = 0;
      const r = await receiver((_index, post) => {
        const failing = post.body.callId === 'call-a' && post.body.type === 'CALL_STARTED' && headFailures < 2;
        if (!failing) return 200;
        headFailures++;
        return headFailures === 1 ? 500 : 503;
      });
      const types = ['CALL_STARTED', 'CALL_RINGING', 'CALL_ESTABLISHED', 'CALL_FINISHED'];
      const callA = callEvents(a.id, r.url, 'call-a', types);
      const callB = callEvents(a.id, r.url, 'call-b', types);
      await store().outbox.enqueue([callA[0]!, callB[0]!, callA[1]!, callB[1]!]);
      await store().outbox.enqueue([callA[2]!, callB[2]!, callA[3]!, callB[3]!]);
      const clock = new ManualClock(T0);
      const { sender } = startSender(store(), clock);

      await eventually(async () => (eventPosts(r, 'call-b').length === 4 ? true : undefined));
      assert.deepEqual(eventPosts(r, 'call-b'), types.map((type) => ['call-b', type]));
      const head = await eventually(async () => {
        const items = await store().outbox.listItems(a.id, 'pending', 10);
        const first = items.find((item) => JSON.parse(item.payloads)[0].type === 'CALL_STARTED');
        return first?.attempts === 1 ? first : undefined;
      });
      assert.equal(head.dueAt, T0 + RETRY_MS);
      assert.deepEqual(eventPosts(r, 'call-a'), [['call-a', 'CALL_STARTED']], 'the rest of call-a waits for its head');

      clock.set(head.dueAt);
      sender.nudge();
      const again = await eventually(async () => {
        const [item] = (await store().outbox.listItems(a.id, 'pending', 10)).filter((i) => i.id === head.id);
        return item?.attempts === 2 ? item : undefined;
      });
      assert.deepEqual(eventPosts(r, 'call-a'), [['call-a', 'CALL_STARTED'], ['call-a', 'CALL_STARTED']]);

      clock.set(again.dueAt);
      sender.nudge();
      await eventually(async () => (eventPosts(r, 'call-a').length === 6 ? true : undefined));
      assert.deepEqual(eventPosts(r, 'call-a'), [
        ['call-a', 'CALL_STARTED'],
        ['call-a', 'CALL_STARTED'],
        ['call-a', 'CALL_STARTED'],
        ['call-a', 'CALL_RINGING'],
        ['call-a', 'CALL_ESTABLISHED'],
        ['call-a', 'CALL_FINISHED'],
      ]);
      const delivered = await eventually(async () => {
        const list = await store().outbox.listItems(a.id, 'delivered', 10);
        return list.length === 8 ? list : undefined;
      });
      assert.deepEqual(delivered.map((item) => item.attempts).sort(), [1, 1, 1, 1, 1, 1, 1, 3]);
    });

    it('gives the items up as failed after maxAttempts', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver(() => 500);
      await store().outbox.enqueue(items(a.id, r.url, 1));
      const clock = new ManualClock(T0);
      const { sender, metrics } = startSender(store(), clock, { maxAttempts: 2 });

      const first = await settledItem(a.id, 1);
      clock.set(first.dueAt);
      sender.nudge();
      const last = await settledItem(a.id, 2);
      assert.equal(last.state, 'failed');
      await sender.stop();

      assert.deepEqual((await store().outbox.listAttempts(a.id, 10)).map((x) => x.outcome), ['failed', 'retry']);
      assert.deepEqual(await store().outbox.claimDue(T0 + 10 * 86_400_000, 10, T0 + 11 * 86_400_000), []);
      assert.equal(r.posts.length, 2);
      assert.equal(await counterValue(metrics, 'webhookItems', 'failed'), 1);
    });

    it('records a receiver that never answers as a timed-out attempt', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver(['hang']);
      await store().outbox.enqueue(items(a.id, r.url, 1));
      startSender(store(), new ManualClock(T0), { timeoutMs: 200 });

      const item = await settledItem(a.id, 1);
      assert.equal(item.state, 'pending');
      assert.equal(item.lastError, 'timed out after 200 ms');
      const [attempt] = await store().outbox.listAttempts(a.id, 10);
      assert.equal(attempt!.httpStatus, undefined);
      assert.equal(attempt!.error, 'timed out after 200 ms');
      assert.equal(attempt!.outcome, 'retry');
      assert.ok(attempt!.durationMs >= 150, `duration ${attempt!.durationMs}`);
    });

    it('records a refused connection with the network error', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver();
      const url = r.url;
      await r.close();
      await store().outbox.enqueue(items(a.id, url, 1));
      startSender(store(), new ManualClock(T0));

      const item = await settledItem(a.id, 1);
      assert.match(item.lastError ?? '', /ECONNREFUSED/);
    });

    it('keeps accounts apart: one POST per account, attempts listed per account', async () => {
      const { a, b } = await twoAccounts(store());
      const r = await receiver();
      await store().outbox.enqueue([...items(a.id, r.url, 2), ...items(b.id, r.url, 3)]);
      startSender(store(), new ManualClock(T0));

      await r.waitForPosts(2);
      const sizes = r.posts.map((p) => (p.body.results as unknown[]).length).sort();
      assert.deepEqual(sizes, [2, 3]);
      const attemptsA = await eventually(async () => {
        const list = await store().outbox.listAttempts(a.id, 10);
        return list.length > 0 ? list : undefined;
      });
      assert.deepEqual(attemptsA.map((x) => x.payloadCount), [2]);
      assert.deepEqual((await eventually(async () => {
        const list = await store().outbox.listAttempts(b.id, 10);
        return list.length > 0 ? list : undefined;
      })).map((x) => x.payloadCount), [3]);
    });

    it('stop() waits for the POST in flight and records it', async () => {
      const { a } = await twoAccounts(store());
      const r = await receiver();
      await store().outbox.enqueue(items(a.id, r.url, 1));
      const slow = await WebhookReceiver.start(['hang']);
      running.push({ stop: () => slow.close() });
      await store().outbox.enqueue(items(a.id, slow.url, 1));
      const { sender } = startSender(store(), new ManualClock(T0), { timeoutMs: 300 });
      await slow.waitForPosts(1);
      await sender.stop();
      const attempts = await store().outbox.listAttempts(a.id, 10);
      assert.equal(attempts.length, 2, 'the hanging POST was recorded before stop() resolved');
    });
  });
}
