import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { NewMessage, Store } from '../../src/core/store/types.js';
import {
  cleanupStores,
  DELIVERED,
  deliveredChange,
  insertAll,
  newMessage,
  PENDING,
  reportFor,
  storeDrivers,
  storePerTest,
  T0,
  twoAccounts,
  UNDELIVERABLE,
  webhookItem,
} from '../helpers/stores.js';

after(cleanupStores);

const LEASE = 30_000;

/** Inserts a message, claims it and marks it submitted at T0 + 10. */
async function submitted(store: Store, accountId: string): Promise<{ message: NewMessage; pk: number }> {
  const message = newMessage(accountId);
  const [pk] = await insertAll(store, [message]);
  await store.messages.claimDue(T0, 100, T0 + LEASE);
  await store.messages.markSubmitted([{ accountId, pk: pk!, carrier: 'sandbox', carrierMessageId: message.messageId, at: T0 + 10 }]);
  return { message, pk: pk! };
}

const pendingReports = (store: Store, accountId: string) =>
  store.reports.consume({ accountId, since: 0, limit: 100 });

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('a non-final change updates status and network but keeps the state', async () => {
      const { a } = await twoAccounts(store());
      const { message, pk } = await submitted(store(), a.id);
      await store().messages.applyStatusChanges([
        { accountId: a.id, pk, status: { groupId: 1, id: 3 }, errorId: 0, final: false, at: T0 + 20, mccMnc: '21910' },
      ]);

      const stored = await store().messages.get(a.id, message.messageId);
      assert.equal(stored?.state, 'submitted');
      assert.deepEqual(stored?.status, { groupId: 1, id: 3 });
      assert.equal(stored?.mccMnc, '21910');
      assert.equal(stored?.doneAt, undefined);
    });

    it('a change that carries its submit ends a claimed message with the carrier id and sentAt', async () => {
      const { a } = await twoAccounts(store());
      const message = newMessage(a.id);
      const [pk] = await insertAll(store(), [message]);
      await store().messages.claimDue(T0, 100, T0 + LEASE);
      const change = deliveredChange(message, pk!, T0 + 10);
      change.submitted = { carrier: 'sandbox', carrierMessageId: 'carrier-1', at: T0 + 10 };
      await store().messages.applyStatusChanges([change]);

      const stored = await store().messages.get(a.id, message.messageId);
      assert.equal(stored?.state, 'final');
      assert.deepEqual(stored?.status, DELIVERED);
      assert.equal(stored?.carrier, 'sandbox');
      assert.equal(stored?.carrierMessageId, 'carrier-1');
      assert.equal(stored?.sentAt, T0 + 10);
      assert.equal(stored?.doneAt, T0 + 10);
      assert.equal((await pendingReports(store(), a.id)).length, 1);
      // Nothing is left to claim again or to wait for a receipt.
      assert.deepEqual(await store().messages.claimDue(T0 + 2 * LEASE, 100, T0 + 3 * LEASE), []);
      assert.deepEqual(await store().messages.listSubmitted('sandbox', 100), []);
    });

    it('records what the phone received with a change, only when the change applies', async () => {
      const { a } = await twoAccounts(store());
      const { message, pk } = await submitted(store(), a.id);
      const phone = (at: number) => ({ number: message.destination, at });
      await store().messages.applyStatusChanges([
        { ...deliveredChange(message, pk, T0 + 40), phone: phone(T0 + 40) },
        // The message is final by now: neither this change nor what it says the phone received applies.
        { ...deliveredChange(message, pk, T0 + 41), phone: phone(T0 + 41) },
      ]);
      await store().messages.applyStatusChanges([{ ...deliveredChange(message, pk, T0 + 50), phone: phone(T0 + 50) }]);

      assert.deepEqual(await store().phones.list(a.id, message.destination, 10), [
        { accountId: a.id, number: message.destination, channel: 'SMS', text: 'hello', messageId: message.messageId, receivedAt: T0 + 40 },
      ]);
    });

    it('a final change finalizes the message, sets doneAt and keeps sentAt', async () => {
      const { a } = await twoAccounts(store());
      const { message, pk } = await submitted(store(), a.id);
      await store().messages.applyStatusChanges([
        { accountId: a.id, pk, status: UNDELIVERABLE, errorId: 1, final: true, at: T0 + 30, mccMnc: '21901' },
      ]);

      const stored = await store().messages.get(a.id, message.messageId);
      assert.deepEqual(
        [stored?.state, stored?.status, stored?.errorId, stored?.doneAt, stored?.sentAt, stored?.mccMnc],
        ['final', UNDELIVERABLE, 1, T0 + 30, T0 + 10, '21901'],
      );
    });

    it('keeps the known network when a change carries none', async () => {
      const { a } = await twoAccounts(store());
      const { message, pk } = await submitted(store(), a.id);
      await store().messages.applyStatusChanges([{ accountId: a.id, pk, status: PENDING, errorId: 0, final: false, at: T0, mccMnc: '21910' }]);
      await store().messages.applyStatusChanges([deliveredChange(message, pk, T0 + 40)]);
      assert.equal((await store().messages.get(a.id, message.messageId))?.mccMnc, '21910');
    });

    it('final is final: later changes, reports and webhooks of a final message are dropped', async () => {
      const { a } = await twoAccounts(store());
      const { message, pk } = await submitted(store(), a.id);
      await store().messages.applyStatusChanges([
        deliveredChange(message, pk, T0 + 40),
        { ...deliveredChange(message, pk, T0 + 41), status: UNDELIVERABLE, webhooks: [webhookItem(a.id)] },
      ]);
      await store().messages.applyStatusChanges([
        { ...deliveredChange(message, pk, T0 + 50), status: UNDELIVERABLE, webhooks: [webhookItem(a.id)] },
      ]);

      const stored = await store().messages.get(a.id, message.messageId);
      assert.deepEqual([stored?.status, stored?.doneAt], [DELIVERED, T0 + 40]);
      assert.deepEqual(await pendingReports(store(), a.id), [{ ...reportFor(message, T0 + 40), sentAt: T0 + 10 }]);
      assert.deepEqual(await store().outbox.listItems(a.id, undefined, 10), []);
    });

    it('queues the pull report only when asked', async () => {
      const { a } = await twoAccounts(store());
      const first = await submitted(store(), a.id);
      const second = await submitted(store(), a.id);
      const { pullReport: _omitted, ...withoutReport } = deliveredChange(second.message, second.pk, T0 + 40);
      await store().messages.applyStatusChanges([deliveredChange(first.message, first.pk, T0 + 40), withoutReport]);

      assert.deepEqual(await pendingReports(store(), a.id), [{ ...reportFor(first.message, T0 + 40), sentAt: T0 + 10 }]);
      assert.equal((await store().messages.get(a.id, second.message.messageId))?.state, 'final');
    });

    it('enqueues the webhook items of applied changes', async () => {
      const { a } = await twoAccounts(store());
      const { message, pk } = await submitted(store(), a.id);
      const items = [webhookItem(a.id, { payload: { n: 1 } }), webhookItem(a.id, { payload: { n: 2 }, dueAt: T0 + 5 })];
      await store().messages.applyStatusChanges([
        { accountId: a.id, pk, status: PENDING, errorId: 0, final: false, at: T0 + 20, webhooks: items },
      ]);

      const queued = await store().outbox.listItems(a.id, 'pending', 10);
      assert.deepEqual(queued.flatMap((item) => JSON.parse(item.payloads)).reverse(), [{ n: 1 }, { n: 2 }]);
      assert.equal((await store().messages.get(a.id, message.messageId))?.state, 'submitted');
    });

    it('ignores a change whose account does not own the message', async () => {
      const { a, b } = await twoAccounts(store());
      const { message, pk } = await submitted(store(), a.id);
      await store().messages.applyStatusChanges([
        { ...deliveredChange(message, pk, T0 + 40), accountId: b.id, webhooks: [webhookItem(b.id)] },
      ]);

      assert.equal((await store().messages.get(a.id, message.messageId))?.state, 'submitted');
      assert.deepEqual(await pendingReports(store(), b.id), []);
      assert.deepEqual(await store().outbox.listItems(b.id, undefined, 10), []);
    });

    it('applies a batch atomically: one failing change rolls back all of them', async () => {
      const { a } = await twoAccounts(store());
      const first = await submitted(store(), a.id);
      const second = await submitted(store(), a.id);
      // A BigInt cannot be serialized as JSON, so enqueuing this item fails.
      const unserializable = webhookItem(a.id, { payload: { big: 1n } });

      await assert.rejects(
        store().messages.applyStatusChanges([
          deliveredChange(first.message, first.pk, T0 + 40),
          { ...deliveredChange(second.message, second.pk, T0 + 40), webhooks: [unserializable] },
        ]),
      );
      assert.equal((await store().messages.get(a.id, first.message.messageId))?.state, 'submitted');
      assert.equal((await store().messages.get(a.id, second.message.messageId))?.state, 'submitted');
      assert.deepEqual(await pendingReports(store(), a.id), []);
      assert.deepEqual(await store().outbox.listItems(a.id, undefined, 10), []);
    });
  });
}
