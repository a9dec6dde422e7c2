import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { OutboxItem, WebhookAttempt } from '../../src/core/store/types.js';
import { cleanupStores, MINUTE, storeDrivers, storePerTest, T0, twoAccounts, webhookItem } from '../helpers/stores.js';

after(cleanupStores);

const LEASE = 30_000;

/** Items for distinct URLs, so each gets its own row. */
const hooks = (accountId: string, n: number) =>
  Array.from({ length: n }, (_, i) => webhookItem(accountId, { url: `https://hooks.example.com/${i}` }));

function attemptFor(items: OutboxItem[], overrides: Partial<Omit<WebhookAttempt, 'id'>> = {}): Omit<WebhookAttempt, 'id'> {
  return {
    accountId: items[0]!.accountId,
    url: items[0]!.url,
    itemIds: items.map((item) => item.id),
    payloadCount: items.reduce((sum, item) => sum + item.payloadCount, 0),
    attemptNo: 1,
    startedAt: T0,
    durationMs: 12,
    httpStatus: 200,
    outcome: 'delivered',
    ...overrides,
  };
}

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('claims due pending items oldest dueAt first, up to the limit, with every field', async () => {
      const { a, b } = await twoAccounts(store());
      const secured = webhookItem(a.id, {
        dueAt: T0 + 1,
        security: { type: 'HMAC', secret: 's3cret', algorithm: 'SHA256' },
        subscriptionId: 'sub-1',
        payload: { results: [{ messageId: 'm1', status: { groupId: 3 } }] },
      });
      await store().outbox.enqueue([webhookItem(a.id, { dueAt: T0 + MINUTE }), secured, webhookItem(b.id, { dueAt: T0 })]);

      const claimed = await store().outbox.claimDue(T0 + 10, 2, T0 + LEASE);
      assert.deepEqual(claimed.map((item) => [item.accountId, item.dueAt]), [[b.id, T0], [a.id, T0 + 1]]);
      const { id: _id, ...rest } = claimed[1]!;
      const { payload, ...input } = secured;
      assert.deepEqual(rest, { ...input, payloads: JSON.stringify([payload]), payloadCount: 1, attempts: 0, state: 'pending' });
      assert.deepEqual(await store().outbox.claimDue(T0 + 10, 10, T0 + LEASE), []);
    });

    it('does not hand a leased item out again until the lease expires', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([webhookItem(a.id)]);
      const [first] = await store().outbox.claimDue(T0, 10, T0 + LEASE);

      assert.deepEqual(await store().outbox.claimDue(T0 + LEASE, 10, T0 + 2 * LEASE), []);
      const [again] = await store().outbox.claimDue(T0 + LEASE + 1, 10, T0 + 2 * LEASE);
      assert.equal(again?.id, first?.id);
    });

    it('gives concurrent claimers disjoint items', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue(hooks(a.id, 12));
      const batches = await Promise.all([1, 2, 3].map(() => store().outbox.claimDue(T0, 5, T0 + LEASE)));
      const ids = batches.flat().map((item) => item.id);
      assert.equal(ids.length, 12);
      assert.equal(new Set(ids).size, 12);
    });

    it('records a delivered attempt and retires its items', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue(hooks(a.id, 2));
      const items = await store().outbox.claimDue(T0, 10, T0 + LEASE);
      await store().outbox.recordAttempt(attemptFor(items), { state: 'delivered' });

      const stored = await store().outbox.listItems(a.id, 'delivered', 10);
      assert.deepEqual(stored.map((item) => [item.state, item.attempts]), [['delivered', 1], ['delivered', 1]]);
      assert.deepEqual(await store().outbox.claimDue(T0 + 10 * LEASE, 10, T0 + 11 * LEASE), []);
      const [attempt] = await store().outbox.listAttempts(a.id, 10);
      assert.deepEqual(attempt, { id: attempt!.id, ...attemptFor(items) });
    });

    it('a retry keeps items pending until their new dueAt and remembers the error', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([webhookItem(a.id)]);
      const items = await store().outbox.claimDue(T0, 10, T0 + LEASE);
      await store().outbox.recordAttempt(
        attemptFor(items, { httpStatus: 503, error: 'HTTP 503', outcome: 'retry' }),
        { state: 'pending', dueAt: T0 + MINUTE },
      );

      const [item] = await store().outbox.listItems(a.id, 'pending', 10);
      assert.deepEqual([item?.attempts, item?.dueAt, item?.lastError], [1, T0 + MINUTE, 'HTTP 503']);
      assert.deepEqual(await store().outbox.claimDue(T0 + MINUTE - 1, 10, T0 + 2 * MINUTE), []);
      const [retried] = await store().outbox.claimDue(T0 + MINUTE, 10, T0 + 2 * MINUTE);
      assert.equal(retried?.id, item?.id);
    });

    it('a failed attempt marks its items failed for good', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([webhookItem(a.id)]);
      const items = await store().outbox.claimDue(T0, 10, T0 + LEASE);
      await store().outbox.recordAttempt(attemptFor(items, { httpStatus: undefined, error: 'ECONNREFUSED', outcome: 'failed' }), {
        state: 'failed',
      });

      const [item] = await store().outbox.listItems(a.id, 'failed', 10);
      assert.deepEqual([item?.state, item?.lastError], ['failed', 'ECONNREFUSED']);
      assert.deepEqual(await store().outbox.claimDue(T0 + 10 * LEASE, 10, T0 + 11 * LEASE), []);
      const [attempt] = await store().outbox.listAttempts(a.id, 10);
      assert.equal(attempt !== undefined && 'httpStatus' in attempt, false);
    });

    it('lists attempts newest first with beforeId paging, per account', async () => {
      const { a, b } = await twoAccounts(store());
      await store().outbox.enqueue([webhookItem(a.id), webhookItem(b.id)]);
      const [ofA, ofB] = await store().outbox.claimDue(T0, 10, T0 + LEASE);
      for (const attemptNo of [1, 2, 3]) {
        await store().outbox.recordAttempt(attemptFor([ofA!], { attemptNo, outcome: 'retry' }), { state: 'pending', dueAt: T0 });
      }
      await store().outbox.recordAttempt(attemptFor([ofB!]), { state: 'delivered' });

      const page1 = await store().outbox.listAttempts(a.id, 2);
      assert.deepEqual(page1.map((attempt) => attempt.attemptNo), [3, 2]);
      const page2 = await store().outbox.listAttempts(a.id, 2, page1.at(-1)!.id);
      assert.deepEqual(page2.map((attempt) => attempt.attemptNo), [1]);
      assert.deepEqual((await store().outbox.listAttempts(b.id, 10)).map((attempt) => attempt.itemIds), [[ofB!.id]]);
    });

    it('lists items newest first, by state, per account, and counts by state', async () => {
      const { a, b } = await twoAccounts(store());
      await store().outbox.enqueue([...hooks(a.id, 3), webhookItem(b.id)]);
      const [first, second] = await store().outbox.claimDue(T0, 2, T0 + LEASE);
      await store().outbox.recordAttempt(attemptFor([first!]), { state: 'delivered' });
      await store().outbox.recordAttempt(attemptFor([second!], { outcome: 'failed', httpStatus: 400 }), { state: 'failed' });

      const all = await store().outbox.listItems(a.id, undefined, 10);
      assert.equal(all.length, 3);
      assert.ok(all[0]!.id > all[1]!.id && all[1]!.id > all[2]!.id);
      assert.deepEqual((await store().outbox.listItems(a.id, 'delivered', 10)).map((item) => item.id), [first!.id]);
      assert.deepEqual((await store().outbox.listItems(a.id, 'failed', 10)).map((item) => item.id), [second!.id]);
      assert.equal((await store().outbox.listItems(a.id, undefined, 1)).length, 1);
      assert.equal((await store().outbox.listItems(b.id, undefined, 10)).length, 1);
      assert.deepEqual(await store().outbox.countByState(), { pending: 2, delivered: 1, failed: 1 });
    });

    it('packs the items of one target into rows of up to one POST, payloads in order', async () => {
      const { a, b } = await twoAccounts(store());
      const url = 'https://hooks.example.com/dlr';
      const reports = Array.from({ length: 230 }, (_, n) => webhookItem(a.id, { url, payload: { n } }));
      const secured = webhookItem(a.id, { url, security: { type: 'BASIC', username: 'u', password: 'p' }, payload: { n: 's' } });
      const ofB = webhookItem(b.id, { url, payload: { n: 'b' } });
      const later = webhookItem(a.id, { url, dueAt: T0 + MINUTE, payload: { n: 'later' } });
      const calls = [1, 2].map((n) => webhookItem(a.id, { url, format: 'voice-event', payload: { call: n } }));
      await store().outbox.enqueue([...reports.slice(0, 120), secured, ofB, later, ...calls, ...reports.slice(120)]);

      const claimed = await store().outbox.claimDue(T0 + MINUTE, 20, T0 + LEASE);
      const rows = claimed.map((item) => [item.accountId, item.format, item.security?.type ?? '', item.dueAt, JSON.parse(item.payloads)]);
      const ns = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ n: from + i }));
      assert.deepEqual(rows.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))), [
        [a.id, 'sms-dlr', '', T0, ns(0, 100)],
        [a.id, 'sms-dlr', '', T0, ns(100, 200)],
        [a.id, 'sms-dlr', '', T0, ns(200, 230)],
        [a.id, 'sms-dlr', '', T0 + MINUTE, [{ n: 'later' }]],
        [a.id, 'sms-dlr', 'BASIC', T0, [{ n: 's' }]],
        [a.id, 'voice-event', '', T0, [{ call: 1 }]],
        [a.id, 'voice-event', '', T0, [{ call: 2 }]],
        [b.id, 'sms-dlr', '', T0, [{ n: 'b' }]],
      ].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))));
      assert.ok(claimed.every((item) => item.payloadCount === JSON.parse(item.payloads).length));
      assert.deepEqual(await store().outbox.countByState(), { pending: 235, delivered: 0, failed: 0 });
    });
  });
}
