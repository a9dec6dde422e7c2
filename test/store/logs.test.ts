import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { MessageLogFilter, NewMessage, Store } from '../../src/core/store/types.js';
import {
  cleanupStores,
  deliveredChange,
  HOUR,
  insertAll,
  newMessage,
  storeDrivers,
  storePerTest,
  T0,
  twoAccounts,
} from '../helpers/stores.js';

after(cleanupStores);

/**
 * Three messages of one account: `plain` stays queued; `sentEarly` and `sentLate` are submitted
 * (at T0 + 1h and T0 + 2h) and delivered on different networks.
 */
async function seed(store: Store, accountId: string) {
  const plain = newMessage(accountId, { bulkId: 'b1', sender: 'Alpha', destination: '111', createdAt: T0 });
  const sentEarly = newMessage(accountId, {
    bulkId: 'b2',
    sender: 'Beta',
    destination: '222',
    campaignReferenceId: 'camp-1',
    entityId: 'ent-1',
    createdAt: T0 + 1,
  });
  const sentLate = newMessage(accountId, {
    bulkId: 'b2',
    sender: 'Beta',
    destination: '333',
    campaignReferenceId: 'camp-2',
    applicationId: 'app-1',
    createdAt: T0 + 2,
  });
  const [plainPk, earlyPk, latePk] = await insertAll(store, [plain, sentEarly, sentLate]);
  await store.messages.claimDue(T0 + 2, 10, T0 + HOUR);
  await store.messages.requeue([{ accountId, pk: plainPk!, dueAt: T0 + 10 * HOUR }]);
  await store.messages.markSubmitted([
    { accountId, pk: earlyPk!, carrier: 'sandbox', carrierMessageId: 'c1', at: T0 + HOUR },
    { accountId, pk: latePk!, carrier: 'sandbox', carrierMessageId: 'c2', at: T0 + 2 * HOUR },
  ]);
  await store.messages.applyStatusChanges([
    { ...deliveredChange(sentEarly, earlyPk!, T0 + HOUR), mccMnc: '21910' },
    { ...deliveredChange(sentLate, latePk!, T0 + 2 * HOUR), mccMnc: '22801' },
  ]);
  return { plain, sentEarly, sentLate };
}

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const ids = (messages: Array<{ messageId: string }>) => messages.map((m) => m.messageId);
    const list = (filter: Partial<MessageLogFilter> & { accountId: string }) =>
      store().messages.listLogs({ since: 0, limit: 100, ...filter });

    it('lists newest first with limit and beforePk paging', async () => {
      const { a } = await twoAccounts(store());
      const pks = await insertAll(store(), Array.from({ length: 5 }, () => newMessage(a.id)));

      const page1 = await list({ accountId: a.id, limit: 2 });
      assert.deepEqual(page1.map((m) => m.pk), [pks[4], pks[3]]);
      const page2 = await list({ accountId: a.id, limit: 2, beforePk: page1.at(-1)!.pk });
      assert.deepEqual(page2.map((m) => m.pk), [pks[2], pks[1]]);
      const page3 = await list({ accountId: a.id, limit: 2, beforePk: page2.at(-1)!.pk });
      assert.deepEqual(page3.map((m) => m.pk), [pks[0]]);
    });

    it('returns stored messages in full', async () => {
      const { a } = await twoAccounts(store());
      const { sentLate } = await seed(store(), a.id);
      const [newest] = await list({ accountId: a.id, limit: 1 });
      assert.deepEqual(newest, await store().messages.get(a.id, sentLate.messageId));
    });

    it('only lists messages created since `since`', async () => {
      const { a } = await twoAccounts(store());
      const { sentEarly, sentLate } = await seed(store(), a.id);
      assert.deepEqual(ids(await list({ accountId: a.id, since: T0 + 1 })), ids([sentLate, sentEarly]));
    });

    type Seeded = Awaited<ReturnType<typeof seed>>;
    const cases: Array<[string, (s: Seeded) => Partial<MessageLogFilter>, (s: Seeded) => NewMessage[]]> = [
      ['sender', () => ({ sender: 'Beta' }), (s) => [s.sentLate, s.sentEarly]],
      ['destination', () => ({ destination: '111' }), (s) => [s.plain]],
      ['bulkIds', () => ({ bulkIds: ['b1', 'nope'] }), (s) => [s.plain]],
      ['messageIds', (s) => ({ messageIds: [s.plain.messageId, s.sentLate.messageId] }), (s) => [s.sentLate, s.plain]],
      ['campaignReferenceIds', () => ({ campaignReferenceIds: ['camp-1'] }), (s) => [s.sentEarly]],
      ['statusGroupId', () => ({ statusGroupId: 3 }), (s) => [s.sentLate, s.sentEarly]],
      ['sentSince (inclusive)', () => ({ sentSince: T0 + 2 * HOUR }), (s) => [s.sentLate]],
      // A message not sent yet counts as sent at its acceptance, as the logs show it.
      ['sentUntil (inclusive)', () => ({ sentUntil: T0 + HOUR }), (s) => [s.sentEarly, s.plain]],
      ['mcc', () => ({ mcc: '228' }), (s) => [s.sentLate]],
      ['mnc', () => ({ mnc: '10' }), (s) => [s.sentEarly]],
      ['entityId', () => ({ entityId: 'ent-1' }), (s) => [s.sentEarly]],
      ['applicationId', () => ({ applicationId: 'app-1' }), (s) => [s.sentLate]],
    ];
    for (const [name, filterFor, expected] of cases) {
      it(`filters by ${name}`, async () => {
        const { a } = await twoAccounts(store());
        const seeded = await seed(store(), a.id);
        assert.deepEqual(ids(await list({ accountId: a.id, ...filterFor(seeded) })), ids(expected(seeded)));
      });
    }

    it('combines filters', async () => {
      const { a } = await twoAccounts(store());
      const { sentEarly } = await seed(store(), a.id);
      assert.deepEqual(ids(await list({ accountId: a.id, sender: 'Beta', mcc: '219', statusGroupId: 3 })), ids([sentEarly]));
      assert.deepEqual(await list({ accountId: a.id, sender: 'Alpha', statusGroupId: 3 }), []);
    });

    it('never lists another account\'s messages', async () => {
      const { a, b } = await twoAccounts(store());
      await seed(store(), a.id);
      const onlyB = newMessage(b.id, { bulkId: 'b1', sender: 'Alpha' });
      await insertAll(store(), [onlyB]);
      assert.deepEqual(ids(await list({ accountId: b.id })), ids([onlyB]));
      assert.deepEqual(ids(await list({ accountId: b.id, bulkIds: ['b1', 'b2'] })), ids([onlyB]));
    });
  });
}
