import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PartReceipt, Store } from '../../src/core/store/types.js';
import { cleanupStores, DELIVERED, HOUR, insertAll, newMessage, storeDrivers, storePerTest, T0, twoAccounts, UNDELIVERABLE } from '../helpers/stores.js';

after(cleanupStores);

const ENROUTE = { groupId: 1, id: 7 } as const;

const receipt = (partId: string, status: PartReceipt['status'], at: number, final = status.groupId >= 2): PartReceipt => ({ partId, status, errorId: 0, final, at });

/** A three-part message claimed and submitted to `carrier` with parts p1..p3 (prefixed). */
async function longMessage(store: Store, accountId: string, prefix: string, carrier = 'smsc'): Promise<number> {
  const [pk] = await insertAll(store, [newMessage(accountId, { messageCount: 3 })]);
  await store.messages.claimDue(T0, 100, T0 + 30_000);
  const partIds = [`${prefix}1`, `${prefix}2`, `${prefix}3`];
  await store.messages.markSubmitted([{ accountId, pk: pk!, carrier, carrierMessageId: partIds.join(' '), partIds, at: T0 + 10 }]);
  return pk!;
}

for (const driver of storeDrivers()) {
  describe(`${driver.name}: parts of long messages`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('stores each part with the submit, and records receipts on the parts they name', async () => {
      const { a } = await twoAccounts(store());
      const pk = await longMessage(store(), a.id, 'a');
      const parts = (await store().parts.list([pk])).get(pk)!;
      assert.deepEqual(parts, [1, 2, 3].map((n) => ({ number: n, partId: `a${n}`, submittedAt: T0 + 10 })));

      const [match] = await store().parts.recordReceipts('smsc', [receipt('a2', DELIVERED, T0 + 20)]);
      assert.equal(match?.messagePk, pk);
      assert.deepEqual(match?.parts.map((p) => p.receipt?.status ?? null), [null, DELIVERED, null]);
      assert.deepEqual(match?.changed.map((r) => r.partId), ['a2']);
      assert.deepEqual((await store().parts.list([pk])).get(pk)![1]!.receipt, { status: DELIVERED, errorId: 0, final: true, at: T0 + 20 }, 'stored');
    });

    it("keeps a part's first final receipt for good; an intermediate one only until then, and not twice", async () => {
      const { a } = await twoAccounts(store());
      await longMessage(store(), a.id, 'b');
      const [first] = await store().parts.recordReceipts('smsc', [receipt('b1', ENROUTE, T0 + 20), receipt('b1', ENROUTE, T0 + 21)]);
      assert.equal(first?.changed.length, 1, 'a repeated intermediate state changes nothing');
      const [second] = await store().parts.recordReceipts('smsc', [receipt('b1', UNDELIVERABLE, T0 + 30), receipt('b1', DELIVERED, T0 + 31), receipt('b1', ENROUTE, T0 + 32)]);
      assert.deepEqual(second?.changed.map((r) => r.status), [UNDELIVERABLE]);
      assert.deepEqual(second?.parts[0]?.receipt, { status: UNDELIVERABLE, errorId: 0, final: true, at: T0 + 30 });
      const [again] = await store().parts.recordReceipts('smsc', [receipt('b1', UNDELIVERABLE, T0 + 40)]);
      assert.deepEqual(again?.changed, [], 'a receipt sent again matches, and changes nothing');
    });

    it('matches by carrier, and leaves out receipts naming no part', async () => {
      const { a, b } = await twoAccounts(store());
      const mine = await longMessage(store(), a.id, 'c', 'smsc');
      await longMessage(store(), b.id, 'd', 'other');
      const matches = await store().parts.recordReceipts('smsc', [receipt('c3', DELIVERED, T0 + 20), receipt('d1', DELIVERED, T0 + 20), receipt('zz', DELIVERED, T0 + 20)]);
      assert.deepEqual(matches.map((m) => m.messagePk), [mine]);
    });

    it('leaves the parts of a finished message out: a reused id names the message still waiting', async () => {
      const { a } = await twoAccounts(store());
      const finished = await longMessage(store(), a.id, 'r');
      await store().messages.applyStatusChanges([{ accountId: a.id, pk: finished, status: UNDELIVERABLE, errorId: 1, final: true, at: T0 + 15 }]);
      assert.deepEqual(await store().parts.recordReceipts('smsc', [receipt('r1', DELIVERED, T0 + 20)]), [], 'the finished message takes no receipt');
      assert.equal((await store().parts.list([finished])).get(finished)![0]!.receipt, undefined, 'nor is its part changed');
    });

    it('replaces the parts of an earlier submit when a message is submitted again', async () => {
      const { a } = await twoAccounts(store());
      const pk = await longMessage(store(), a.id, 'e');
      await store().parts.recordReceipts('smsc', [receipt('e1', DELIVERED, T0 + 20)]);
      await store().messages.markSubmitted([{ accountId: a.id, pk, carrier: 'smsc', carrierMessageId: 'f1 f2 f3', partIds: ['f1', 'f2', 'f3'], at: T0 + 30 }]);
      assert.deepEqual((await store().parts.list([pk])).get(pk)!.map((p) => [p.partId, p.receipt ?? null]), [['f1', null], ['f2', null], ['f3', null]]);
      assert.deepEqual(await store().parts.recordReceipts('smsc', [receipt('e2', DELIVERED, T0 + 40)]), [], "the earlier submit's parts are gone");
    });

    it('stores no parts for a message the network knows by one id, nor for one already final', async () => {
      const { a } = await twoAccounts(store());
      const [single, ended] = await insertAll(store(), [newMessage(a.id), newMessage(a.id, { messageCount: 2, state: 'final', status: DELIVERED })]);
      await store().messages.claimDue(T0, 100, T0 + 30_000);
      await store().messages.markSubmitted([
        { accountId: a.id, pk: single!, carrier: 'smsc', carrierMessageId: 'g1', at: T0 + 10 },
        { accountId: a.id, pk: ended!, carrier: 'smsc', carrierMessageId: 'h1 h2', partIds: ['h1', 'h2'], at: T0 + 10 },
      ]);
      assert.equal((await store().parts.list([single!, ended!])).size, 0);
    });

    it('purges the parts with their message', async () => {
      const { a } = await twoAccounts(store());
      const pk = await longMessage(store(), a.id, 'i');
      await store().messages.applyStatusChanges([{ accountId: a.id, pk, status: DELIVERED, errorId: 0, final: true, at: T0 + 20 }]);
      assert.equal(await store().messages.purgeBefore(T0 + HOUR), 1);
      assert.equal((await store().parts.list([pk])).size, 0);
    });
  });

  describe(`${driver.name}: kept receipts`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const kept = (carrierMessageId: string) => ({ carrierMessageId, status: DELIVERED, errorId: 0, final: true, at: T0, mccMnc: '22801' });

    it('keeps receipts, hands out those due once until they are due again, and forgets them', async () => {
      await store().keptReceipts.keep('smsc', [kept('x1'), kept('x2')], T0, T0);
      const due = await store().keptReceipts.claimDue(T0, 10, T0 + 1000);
      assert.deepEqual(due.map((k) => [k.carrier, k.carrierMessageId, k.mccMnc, k.keptAt, k.final]), [['smsc', 'x1', '22801', T0, true], ['smsc', 'x2', '22801', T0, true]]);
      assert.deepEqual(await store().keptReceipts.claimDue(T0 + 999, 10, T0 + 2000), [], 'taken until T0 + 1000');
      await store().keptReceipts.remove([due[0]!.id]);
      assert.deepEqual((await store().keptReceipts.claimDue(T0 + 1000, 10, T0 + 2000)).map((k) => k.carrierMessageId), ['x2']);
    });
  });
}
