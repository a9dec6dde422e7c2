import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Store } from '../../src/core/store/types.js';
import {
  cleanupStores,
  deliveredChange,
  HOUR,
  insertAll,
  MINUTE,
  newMessage,
  storeDrivers,
  storePerTest,
  T0,
  twoAccounts,
} from '../helpers/stores.js';

after(cleanupStores);

const LEASE = 30_000;

/** Inserts one queued message per dueAt and returns their pks. */
async function queued(store: Store, accountId: string, dueAts: number[]): Promise<number[]> {
  return insertAll(store, dueAts.map((dueAt) => newMessage(accountId, { dueAt })));
}

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    describe('claimDue', () => {
      it('claims due messages only, oldest dueAt first then pk, up to the limit', async () => {
        const { a, b } = await twoAccounts(store());
        const [late, early] = await queued(store(), a.id, [T0 + 2 * MINUTE, T0, T0 + HOUR]);
        const [sameDueInB] = await queued(store(), b.id, [T0]);
        const now = T0 + 5 * MINUTE;

        const claimed = await store().messages.claimDue(now, 2, now + LEASE);
        assert.deepEqual(claimed.map((m) => m.pk), [early, sameDueInB]);
        for (const message of claimed) {
          assert.equal(message.state, 'dispatching');
          assert.equal(message.leaseUntil, now + LEASE);
          assert.equal(message.attempts, 1);
        }
        const next = await store().messages.claimDue(now, 10, now + LEASE);
        assert.deepEqual(next.map((m) => m.pk), [late]);
      });

      it('returns the full message', async () => {
        const { a } = await twoAccounts(store());
        const message = newMessage(a.id, { sender: 'Bank', callbackData: 'x' });
        const [pk] = await insertAll(store(), [message]);
        const [claimed] = await store().messages.claimDue(T0, 1, T0 + LEASE);
        assert.deepEqual(claimed, { ...message, pk, state: 'dispatching', attempts: 1, leaseUntil: T0 + LEASE });
      });

      it('does not claim a leased message again until its lease has expired', async () => {
        const { a } = await twoAccounts(store());
        const [pk] = await queued(store(), a.id, [T0]);
        await store().messages.claimDue(T0, 10, T0 + LEASE);

        assert.deepEqual(await store().messages.claimDue(T0 + LEASE - 1, 10, T0 + 2 * LEASE), []);
        assert.deepEqual(await store().messages.claimDue(T0 + LEASE, 10, T0 + 2 * LEASE), []);

        const reclaimed = await store().messages.claimDue(T0 + LEASE + 1, 10, T0 + 3 * LEASE);
        assert.deepEqual(reclaimed.map((m) => [m.pk, m.attempts, m.leaseUntil]), [[pk, 2, T0 + 3 * LEASE]]);
      });

      it('gives concurrent claimers disjoint messages', async () => {
        const { a } = await twoAccounts(store());
        const pks = await queued(store(), a.id, Array.from({ length: 20 }, (_, i) => T0 + i));
        const batches = await Promise.all([
          store().messages.claimDue(T0 + MINUTE, 8, T0 + MINUTE + LEASE),
          store().messages.claimDue(T0 + MINUTE, 8, T0 + MINUTE + LEASE),
          store().messages.claimDue(T0 + MINUTE, 8, T0 + MINUTE + LEASE),
        ]);
        const claimed = batches.flat().map((m) => m.pk);
        assert.equal(claimed.length, 20);
        assert.deepEqual([...claimed].sort((x, y) => x - y), pks);
      });

      it('claims nothing with a limit of zero', async () => {
        const { a } = await twoAccounts(store());
        await queued(store(), a.id, [T0]);
        assert.deepEqual(await store().messages.claimDue(T0, 0, T0 + LEASE), []);
      });
    });

    describe('requeue', () => {
      it('puts claimed messages back with a new dueAt', async () => {
        const { a } = await twoAccounts(store());
        const message = newMessage(a.id);
        const [pk] = await insertAll(store(), [message]);
        await store().messages.claimDue(T0, 10, T0 + LEASE);

        await store().messages.requeue([{ accountId: a.id, pk: pk!, dueAt: T0 + HOUR }]);
        const stored = await store().messages.get(a.id, message.messageId);
        assert.equal(stored?.state, 'queued');
        assert.equal(stored?.dueAt, T0 + HOUR);

        assert.deepEqual(await store().messages.claimDue(T0 + HOUR - 1, 10, T0 + 2 * HOUR), []);
        const [again] = await store().messages.claimDue(T0 + HOUR, 10, T0 + 2 * HOUR);
        assert.equal(again?.pk, pk);
        assert.equal(again?.attempts, 2);
      });

      it('ignores items of another account and final messages', async () => {
        const { a, b } = await twoAccounts(store());
        const message = newMessage(a.id);
        const [pk] = await insertAll(store(), [message]);
        await store().messages.claimDue(T0, 10, T0 + LEASE);

        await store().messages.requeue([{ accountId: b.id, pk: pk!, dueAt: T0 + HOUR }]);
        assert.equal((await store().messages.get(a.id, message.messageId))?.state, 'dispatching');

        await store().messages.applyStatusChanges([deliveredChange(message, pk!, T0 + 1)]);
        await store().messages.requeue([{ accountId: a.id, pk: pk!, dueAt: T0 + HOUR }]);
        assert.equal((await store().messages.get(a.id, message.messageId))?.state, 'final');
      });
    });

    describe('submitted messages', () => {
      it('markSubmitted records the carrier id and sentAt and ends the lease', async () => {
        const { a } = await twoAccounts(store());
        const message = newMessage(a.id);
        const [pk] = await insertAll(store(), [message]);
        await store().messages.claimDue(T0, 10, T0 + LEASE);
        await store().messages.markSubmitted([{ accountId: a.id, pk: pk!, carrier: 'sandbox', carrierMessageId: 'c-1', at: T0 + 5 }]);

        const stored = await store().messages.get(a.id, message.messageId);
        assert.deepEqual(
          [stored?.state, stored?.carrier, stored?.carrierMessageId, stored?.sentAt],
          ['submitted', 'sandbox', 'c-1', T0 + 5],
        );
        assert.deepEqual(await store().messages.claimDue(T0 + 10 * LEASE, 10, T0 + 11 * LEASE), []);
      });

      it('findByCarrierIds matches carrier and ids across accounts', async () => {
        const { a, b } = await twoAccounts(store());
        const [pa1, pa2] = await queued(store(), a.id, [T0, T0]);
        const [pb] = await queued(store(), b.id, [T0]);
        await store().messages.claimDue(T0, 10, T0 + LEASE);
        await store().messages.markSubmitted([
          { accountId: a.id, pk: pa1!, carrier: 'sandbox', carrierMessageId: 'x1', at: T0 },
          { accountId: a.id, pk: pa2!, carrier: 'other', carrierMessageId: 'x2', at: T0 },
          { accountId: b.id, pk: pb!, carrier: 'sandbox', carrierMessageId: 'x3', at: T0 },
        ]);

        const found = await store().messages.findByCarrierIds('sandbox', ['x1', 'x2', 'x3', 'unknown']);
        assert.deepEqual(found.map((m) => [m.pk, m.accountId]), [[pa1, a.id], [pb, b.id]]);
        assert.deepEqual(await store().messages.findByCarrierIds('sandbox', []), []);

        await store().messages.applyStatusChanges([deliveredChange(newMessage(a.id), pa1!, T0 + 1)]);
        const afterFinal = await store().messages.findByCarrierIds('sandbox', ['x1', 'x3']);
        assert.deepEqual(afterFinal.map((m) => m.pk), [pb], 'a final message takes no more receipts');
      });

      it('listSubmitted pages through one carrier\'s submitted messages by pk', async () => {
        const { a } = await twoAccounts(store());
        const messages = Array.from({ length: 5 }, () => newMessage(a.id));
        const pks = await insertAll(store(), messages);
        await store().messages.claimDue(T0, 10, T0 + LEASE);
        await store().messages.markSubmitted(
          pks.map((pk, i) => ({ accountId: a.id, pk, carrier: i === 3 ? 'other' : 'sandbox', carrierMessageId: `c${i}`, at: T0 })),
        );
        await store().messages.applyStatusChanges([deliveredChange(messages[4]!, pks[4]!, T0 + 1)]);

        const first = await store().messages.listSubmitted('sandbox', 2);
        assert.deepEqual(first.map((m) => m.pk), [pks[0], pks[1]]);
        const rest = await store().messages.listSubmitted('sandbox', 2, first.at(-1)!.pk);
        assert.deepEqual(rest.map((m) => m.pk), [pks[2]]);
        assert.deepEqual((await store().messages.listSubmitted('other', 10)).map((m) => m.pk), [pks[3]]);
      });

      it('listOverdueSubmitted returns submitted messages past validUntil', async () => {
        const { a } = await twoAccounts(store());
        const messages = [T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR].map((validUntil) => newMessage(a.id, { validUntil }));
        const pks = await insertAll(store(), messages);
        await store().messages.claimDue(T0, 10, T0 + LEASE);
        await store().messages.markSubmitted(pks.map((pk, i) => ({ accountId: a.id, pk, carrier: 'sandbox', carrierMessageId: `c${i}`, at: T0 })));
        await store().messages.applyStatusChanges([deliveredChange(messages[0]!, pks[0]!, T0 + 1)]);

        const overdue = await store().messages.listOverdueSubmitted(T0 + 2 * HOUR + 1, 10);
        assert.deepEqual(overdue.map((m) => m.pk), [pks[1]]);
        assert.equal((await store().messages.listOverdueSubmitted(T0 + 4 * HOUR, 1)).length, 1);
        assert.deepEqual(await store().messages.listOverdueSubmitted(T0 + 30 * MINUTE, 10), []);
      });
    });
  });
}
