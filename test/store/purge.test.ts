import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  cleanupStores,
  deliveredChange,
  HOUR,
  insertAll,
  newMessage,
  REJECTED,
  storeDrivers,
  storePerTest,
  T0,
  twoAccounts,
} from '../helpers/stores.js';

after(cleanupStores);

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('deletes final messages done before the cutoff and nothing else', async () => {
      const { a, b } = await twoAccounts(store());
      const doneEarly = newMessage(a.id);
      const doneLate = newMessage(a.id);
      const stillQueued = newMessage(a.id);
      const rejectedEarly = newMessage(b.id, { state: 'final', status: REJECTED, errorId: 14 });
      const rejectedLate = newMessage(b.id, { state: 'final', status: REJECTED, errorId: 14, createdAt: T0 + 3 * HOUR });
      const [earlyPk, latePk] = await insertAll(store(), [doneEarly, doneLate, stillQueued, rejectedEarly, rejectedLate]);
      await store().messages.applyStatusChanges([
        deliveredChange(doneEarly, earlyPk!, T0 + HOUR),
        deliveredChange(doneLate, latePk!, T0 + 3 * HOUR),
      ]);
      await store().reports.consume({ accountId: a.id, since: 0, limit: 100 });

      assert.equal(await store().messages.purgeBefore(T0 + 2 * HOUR), 2);

      assert.equal(await store().messages.get(a.id, doneEarly.messageId), undefined);
      assert.equal(await store().messages.get(b.id, rejectedEarly.messageId), undefined);
      assert.ok(await store().messages.get(a.id, doneLate.messageId));
      assert.ok(await store().messages.get(a.id, stillQueued.messageId));
      assert.ok(await store().messages.get(b.id, rejectedLate.messageId));
      assert.equal(await store().messages.purgeBefore(T0 + 2 * HOUR), 0);
      assert.deepEqual(
        (await store().messages.listLogs({ accountId: a.id, since: 0, limit: 10 })).map((m) => m.messageId).sort(),
        [doneLate.messageId, stillQueued.messageId].sort(),
      );
    });

    it("frees a deleted message's id: a new message may take it, a kept one's still counts as a duplicate", async () => {
      const { a } = await twoAccounts(store());
      const gone = newMessage(a.id, { state: 'final', status: REJECTED, errorId: 14 });
      const kept = newMessage(a.id, { state: 'final', status: REJECTED, errorId: 14, createdAt: T0 + 3 * HOUR });
      await insertAll(store(), [gone, kept]);
      assert.equal(await store().messages.purgeBefore(T0 + 2 * HOUR), 1);

      const again = newMessage(a.id, { messageId: gone.messageId });
      const [pk, duplicate] = await store().messages.insertMany([again, newMessage(a.id, { messageId: kept.messageId })]);
      assert.equal(typeof pk, 'number');
      assert.equal(duplicate, 'duplicate');
      assert.deepEqual(await store().messages.existingMessageIds(a.id, [gone.messageId, kept.messageId, 'never']), new Set([gone.messageId, kept.messageId]));
      assert.equal((await store().messages.get(a.id, gone.messageId))?.pk, pk);
    });

    it('keeps pending reports and unconsumed inbound messages', async () => {
      const { a } = await twoAccounts(store());
      const message = newMessage(a.id);
      const [pk] = await insertAll(store(), [message]);
      await store().messages.applyStatusChanges([deliveredChange(message, pk!, T0)]);
      await store().inbound.insert(
        { accountId: a.id, messageId: 'mo-1', from: '1', to: '2', text: 'hi', cleanText: 'hi', receivedAt: T0, smsCount: 1 },
        { pullable: true },
      );

      await store().messages.purgeBefore(T0 + HOUR);
      assert.equal((await store().reports.consume({ accountId: a.id, since: 0, limit: 10 })).length, 1);
      assert.equal((await store().inbound.consume({ accountId: a.id, since: 0, limit: 10 })).messages.length, 1);
    });
    it('removes settled webhook items and old attempts, keeping pending items', async () => {
      const { a } = await twoAccounts(store());
      const item = (url: string) => ({ accountId: a.id, url, format: 'sms-dlr', payload: { n: 1 }, createdAt: T0, dueAt: T0 });
      await store().outbox.enqueue([item('http://127.0.0.1/delivered'), item('http://127.0.0.1/pending')]);
      const claimed = await store().outbox.claimDue(T0, 10, T0 + 1000);
      const delivered = claimed.find((i) => i.url.endsWith('/delivered'));
      assert.ok(delivered);
      await store().outbox.recordAttempt(
        { accountId: a.id, url: delivered.url, itemIds: [delivered.id], payloadCount: 1, attemptNo: 1, startedAt: T0, durationMs: 5, httpStatus: 200, outcome: 'delivered' },
        { state: 'delivered' },
      );
      assert.equal((await store().outbox.listAttempts(a.id, 10)).length, 1);

      await store().messages.purgeBefore(T0 + HOUR);

      assert.deepEqual((await store().outbox.listItems(a.id, undefined, 10)).map((i) => i.url), ['http://127.0.0.1/pending']);
      assert.equal((await store().outbox.listAttempts(a.id, 10)).length, 0);
    });
  });
}
