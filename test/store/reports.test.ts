import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { NewMessage, ReportData, ReportFilter, Store } from '../../src/core/store/types.js';
import {
  cleanupStores,
  deliveredChange,
  HOUR,
  insertAll,
  newMessage,
  reportFor,
  storeDrivers,
  storePerTest,
  T0,
  twoAccounts,
} from '../helpers/stores.js';

after(cleanupStores);

/** Inserts the messages and finalizes each with a pull report at its own `at`, in order. */
async function reported(store: Store, messages: NewMessage[], ats: number[]): Promise<ReportData[]> {
  const pks = await insertAll(store, messages);
  const changes = messages.map((message, i) => deliveredChange(message, pks[i]!, ats[i]!));
  await store.messages.applyStatusChanges(changes);
  return changes.map((change) => change.pullReport!);
}

for (const driver of storeDrivers()) {
  describe(driver.name, () => {
    const store = storePerTest(driver);
    const consume = (filter: Partial<ReportFilter> & { accountId: string }) =>
      store().reports.consume({ since: 0, limit: 100, ...filter });

    it('returns pending reports oldest first, each only once', async () => {
      const { a } = await twoAccounts(store());
      const reports = await reported(store(), [newMessage(a.id), newMessage(a.id), newMessage(a.id)], [T0, T0 + 1, T0 + 2]);

      assert.deepEqual(await consume({ accountId: a.id }), reports);
      assert.deepEqual(await consume({ accountId: a.id }), []);
    });

    it('returns every ReportData field as queued', async () => {
      const { a } = await twoAccounts(store());
      const message = newMessage(a.id, { sender: 'Bank', callbackData: 'cb', entityId: 'e', applicationId: 'app', campaignReferenceId: 'c' });
      const [pk] = await insertAll(store(), [message]);
      const full: ReportData = { ...reportFor(message, T0 + 5), sender: 'Bank', mccMnc: '21910', callbackData: 'cb', api: 'sms2', sentAt: T0 + 1 };
      await store().messages.applyStatusChanges([{ ...deliveredChange(message, pk!, T0 + 5), pullReport: full }]);

      assert.deepEqual(await consume({ accountId: a.id }), [full]);
    });

    it('honours the limit and leaves the rest pending', async () => {
      const { a } = await twoAccounts(store());
      const reports = await reported(store(), [newMessage(a.id), newMessage(a.id), newMessage(a.id)], [T0, T0, T0]);

      assert.deepEqual(await consume({ accountId: a.id, limit: 2 }), reports.slice(0, 2));
      assert.deepEqual(await consume({ accountId: a.id, limit: 2 }), reports.slice(2));
    });

    it('skips reports created before `since` without consuming them', async () => {
      const { a } = await twoAccounts(store());
      const [old, recent] = await reported(store(), [newMessage(a.id), newMessage(a.id)], [T0, T0 + HOUR]);

      assert.deepEqual(await consume({ accountId: a.id, since: T0 + 1 }), [recent]);
      assert.deepEqual(await consume({ accountId: a.id, since: T0 }), [old]);
    });

    type IdFilter = 'bulkId' | 'messageId' | 'entityId' | 'applicationId' | 'campaignReferenceId';
    const filters: Array<[IdFilter, Partial<NewMessage>]> = [
      ['bulkId', { bulkId: 'wanted' }],
      ['messageId', { messageId: 'wanted' }],
      ['entityId', { entityId: 'wanted' }],
      ['applicationId', { applicationId: 'wanted' }],
      ['campaignReferenceId', { campaignReferenceId: 'wanted' }],
    ];
    for (const [field, matching] of filters) {
      it(`filters by ${field}`, async () => {
        const { a } = await twoAccounts(store());
        const [, wanted] = await reported(store(), [newMessage(a.id), newMessage(a.id, matching), newMessage(a.id)], [T0, T0, T0]);

        const filter: ReportFilter = { accountId: a.id, since: 0, limit: 100 };
        filter[field] = 'wanted';
        assert.deepEqual(await store().reports.consume(filter), [wanted]);
        assert.equal((await consume({ accountId: a.id })).length, 2);
      });
    }

    it('never returns another account\'s reports', async () => {
      const { a, b } = await twoAccounts(store());
      const [ofA] = await reported(store(), [newMessage(a.id)], [T0]);
      const [ofB] = await reported(store(), [newMessage(b.id)], [T0]);

      assert.deepEqual(await consume({ accountId: b.id }), [ofB]);
      assert.deepEqual(await consume({ accountId: a.id }), [ofA]);
    });
  });
}
