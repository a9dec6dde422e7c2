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
  UNDELIVERABLE,
} from '../helpers/stores.js';

after(cleanupStores);

/** Inserts the messages and finalizes each with a pull report at its own `at`, in order. */
async function reported(store: Store, messages: NewMessage[], ats: number[]): Promise<ReportData[]> {
  const pks = await insertAll(store, messages);
  await store.messages.applyStatusChanges(messages.map((message, i) => deliveredChange(message, pks[i]!, ats[i]!)));
  return messages.map((message, i) => reportFor(message, ats[i]!));
}

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const consume = (filter: Partial<ReportFilter> & { accountId: string }) =>
      store().reports.consume({ since: 0, limit: 100, ...filter });

    it('returns pending reports oldest first, each only once', async () => {
      const { a } = await twoAccounts(store());
      const reports = await reported(store(), [newMessage(a.id), newMessage(a.id), newMessage(a.id)], [T0, T0 + 1, T0 + 2]);

      assert.deepEqual(await consume({ accountId: a.id }), reports);
      assert.deepEqual(await consume({ accountId: a.id }), []);
    });

    it('reads every ReportData field back from the message and its final status', async () => {
      const { a } = await twoAccounts(store());
      const message = newMessage(a.id, {
        api: 'sms2',
        sender: 'Bank',
        callbackData: 'cb',
        entityId: 'e',
        applicationId: 'app',
        campaignReferenceId: 'c',
      });
      const [pk] = await insertAll(store(), [message]);
      await store().messages.applyStatusChanges([
        {
          ...deliveredChange(message, pk!, T0 + 5),
          status: UNDELIVERABLE,
          errorId: 27,
          mccMnc: '21910',
          submitted: { carrier: 'sandbox', carrierMessageId: 'c-1', at: T0 + 1 },
        },
      ]);

      const full: ReportData = {
        bulkId: message.bulkId,
        messageId: message.messageId,
        to: message.destination,
        sender: 'Bank',
        sentAt: T0 + 1,
        doneAt: T0 + 5,
        messageCount: 1,
        mccMnc: '21910',
        callbackData: 'cb',
        status: UNDELIVERABLE,
        errorId: 27,
        entityId: 'e',
        applicationId: 'app',
        campaignReferenceId: 'c',
        api: 'sms2',
      };
      assert.deepEqual(await consume({ accountId: a.id }), [full]);
    });

    it('leaves no report for a change without one, nor for a change that does not apply', async () => {
      const { a } = await twoAccounts(store());
      const [silent, twice] = [newMessage(a.id), newMessage(a.id)];
      const [silentPk, twicePk] = await insertAll(store(), [silent, twice]);
      const { pullReport: _omitted, ...withoutReport } = deliveredChange(silent, silentPk!, T0);
      await store().messages.applyStatusChanges([withoutReport, deliveredChange(twice, twicePk!, T0)]);
      assert.deepEqual(await consume({ accountId: a.id }), [reportFor(twice, T0)]);

      // Final is final: a late second outcome neither changes the report nor queues another.
      await store().messages.applyStatusChanges([{ ...deliveredChange(twice, twicePk!, T0 + 9), status: UNDELIVERABLE }]);
      assert.deepEqual(await consume({ accountId: a.id }), []);
    });

    it('queues no report for an intermediate change', async () => {
      const { a } = await twoAccounts(store());
      const message = newMessage(a.id);
      const [pk] = await insertAll(store(), [message]);
      await store().messages.applyStatusChanges([{ ...deliveredChange(message, pk!, T0), final: false }]);
      assert.deepEqual(await consume({ accountId: a.id }), []);
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
