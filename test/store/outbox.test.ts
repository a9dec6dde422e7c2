import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { OutboxItem, OutboxItemInput, WebhookAttempt } from '../../src/core/store/types.js';
import { cleanupStores, MINUTE, storeDrivers, storePerTest, T0, twoAccounts, webhookItem } from '../helpers/stores.js';

after(cleanupStores);

const LEASE = 30_000;

/** Item `n` of a stream: a call event. */
const event = (accountId: string, stream: string, n: number, overrides: Partial<OutboxItemInput> = {}) =>
  webhookItem(accountId, { format: 'call-event', stream, payload: { stream, n }, ...overrides });

/** [stream, n] of each item, in claim order. */
const events = (items: OutboxItem[]) =>
  items.map((item) => {
    const [payload] = JSON.parse(item.payloads) as Array<{ stream?: string; n: unknown }>;
    return [item.stream ?? null, payload!.n];
  });

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
        stream: 'call-1',
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

    it("claims only the first pending item of each stream, per account, beside items without a stream", async () => {
      const { a, b } = await twoAccounts(store());
      await store().outbox.enqueue([
        event(a.id, 'call-1', 1),
        event(a.id, 'call-2', 1),
        event(a.id, 'call-1', 2),
        webhookItem(a.id, { payload: { n: 'sms' } }),
        event(b.id, 'call-1', 1),
        event(a.id, 'call-2', 2),
      ]);
      await store().outbox.enqueue([event(a.id, 'call-1', 3)]);

      const heads = await store().outbox.claimDue(T0, 10, T0 + LEASE);
      assert.deepEqual(events(heads), [['call-1', 1], ['call-2', 1], [null, 'sms'], ['call-1', 1]]);
      assert.deepEqual(heads.map((item) => item.accountId), [a.id, a.id, a.id, b.id]);
      assert.deepEqual(await store().outbox.claimDue(T0, 10, T0 + LEASE), [], 'the next waits while its head is out');
      const again = await store().outbox.claimDue(T0 + LEASE + 1, 10, T0 + 2 * LEASE);
      assert.deepEqual(
        events(again),
        [['call-1', 1], ['call-2', 1], [null, 'sms'], ['call-1', 1]],
        'a head whose lease ran out is claimed again, never the item behind it',
      );
    });

    it("hands a stream's items out one at a time in enqueue order, each once the one before is delivered", async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([event(a.id, 'call-1', 1), event(a.id, 'call-1', 2)]);
      await store().outbox.enqueue([event(a.id, 'call-1', 3, { dueAt: T0 - MINUTE })]);
      await store().outbox.enqueue([event(a.id, 'call-1', 4), event(a.id, 'call-1', 5)]);

      const order: unknown[] = [];
      for (;;) {
        const claimed = await store().outbox.claimDue(T0, 10, T0 + LEASE);
        if (claimed.length === 0) break;
        assert.equal(claimed.length, 1);
        order.push(events(claimed)[0]![1]);
        await store().outbox.recordAttempt(attemptFor(claimed), { state: 'delivered' });
      }
      assert.deepEqual(order, [1, 2, 3, 4, 5], 'an earlier dueAt does not overtake the stream');
    });

    it('a head given up (failed) lets the next item of its stream through', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([event(a.id, 'call-1', 1), event(a.id, 'call-1', 2)]);
      const head = await store().outbox.claimDue(T0, 10, T0 + LEASE);
      await store().outbox.recordAttempt(attemptFor(head, { httpStatus: 400, outcome: 'failed' }), { state: 'failed' });

      assert.deepEqual(events(await store().outbox.claimDue(T0, 10, T0 + LEASE)), [['call-1', 2]]);
    });

    it('a retried head holds back the rest of its stream only, items enqueued meanwhile too', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([
        event(a.id, 'call-1', 1),
        event(a.id, 'call-1', 2),
        event(a.id, 'call-2', 1),
        webhookItem(a.id, { payload: { n: 'sms' } }),
      ]);
      const first = await store().outbox.claimDue(T0, 10, T0 + LEASE);
      assert.deepEqual(events(first), [['call-1', 1], ['call-2', 1], [null, 'sms']]);
      const [head, other, sms] = first;
      await store().outbox.recordAttempt(attemptFor([head!], { httpStatus: 503, outcome: 'retry' }), { state: 'pending', dueAt: T0 + MINUTE });
      await store().outbox.recordAttempt(attemptFor([other!]), { state: 'delivered' });
      await store().outbox.recordAttempt(attemptFor([sms!]), { state: 'delivered' });
      await store().outbox.enqueue([event(a.id, 'call-1', 3), event(a.id, 'call-2', 2), webhookItem(a.id, { payload: { n: 'sms2' } })]);

      const meanwhile = await store().outbox.claimDue(T0 + 1, 10, T0 + LEASE);
      assert.deepEqual(events(meanwhile), [['call-2', 2], [null, 'sms2']]);
      for (const item of meanwhile) await store().outbox.recordAttempt(attemptFor([item]), { state: 'delivered' });
      const waiting = (await store().outbox.listItems(a.id, 'pending', 10)).filter((item) => item.stream === 'call-1');
      assert.deepEqual(
        waiting.map((item) => [events([item])[0]![1], item.dueAt]),
        [[3, T0 + MINUTE], [2, T0 + MINUTE], [1, T0 + MINUTE]],
        "the rest of the stream is due with its head's retry",
      );
      assert.deepEqual(await store().outbox.claimDue(T0 + MINUTE - 1, 10, T0 + LEASE), []);

      const retried = await store().outbox.claimDue(T0 + MINUTE, 10, T0 + MINUTE + LEASE);
      assert.deepEqual(events(retried), [['call-1', 1]]);
      await store().outbox.recordAttempt(attemptFor(retried, { attemptNo: 2 }), { state: 'delivered' });
      assert.deepEqual(events(await store().outbox.claimDue(T0 + MINUTE, 10, T0 + MINUTE + LEASE)), [['call-1', 2]]);
    });

    it('concurrent claimers never take two items of one stream', async () => {
      const { a } = await twoAccounts(store());
      const streams = Array.from({ length: 20 }, (_, i) => `call-${i}`);
      for (const n of [1, 2, 3]) await store().outbox.enqueue(streams.map((stream) => event(a.id, stream, n)));

      for (const n of [1, 2, 3]) {
        const parallel = await Promise.all([1, 2, 3, 4].map(() => store().outbox.claimDue(T0, 5, T0 + LEASE)));
        const rest = await store().outbox.claimDue(T0, 100, T0 + LEASE);
        const round = [...parallel.flat(), ...rest];
        assert.deepEqual(events(round).map(([stream]) => stream).sort(), [...streams].sort(), `round ${n}: each stream once`);
        assert.ok(events(round).every(([, m]) => m === n), `round ${n}: only item ${n} of each stream`);
        for (const item of round) await store().outbox.recordAttempt(attemptFor([item]), { state: 'delivered' });
      }
      assert.deepEqual(await store().outbox.claimDue(T0, 100, T0 + LEASE), []);
    });

    it("keeps a stream's items in rows of their own, apart from other streams and items without one", async () => {
      const { a } = await twoAccounts(store());
      const url = 'https://hooks.example.com/dlr';
      await store().outbox.enqueue([
        webhookItem(a.id, { url, payload: { n: 'sms-1' } }),
        webhookItem(a.id, { url, stream: 'msg-1', payload: { n: 1 } }),
        webhookItem(a.id, { url, stream: 'msg-2', payload: { n: 1 } }),
        webhookItem(a.id, { url, stream: 'msg-1', payload: { n: 2 } }),
        webhookItem(a.id, { url, payload: { n: 'sms-2' } }),
      ]);

      const rows = (await store().outbox.listItems(a.id, 'pending', 10)).reverse();
      assert.deepEqual(
        rows.map((item) => [item.stream ?? null, item.format, JSON.parse(item.payloads)]),
        [
          [null, 'sms-dlr', [{ n: 'sms-1' }, { n: 'sms-2' }]],
          ['msg-1', 'sms-dlr', [{ n: 1 }]],
          ['msg-2', 'sms-dlr', [{ n: 1 }]],
          ['msg-1', 'sms-dlr', [{ n: 2 }]],
        ],
        'rows in the order of their first item, a batched format too',
      );
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
