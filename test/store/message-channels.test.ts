import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { NewMessage } from '../../src/core/store/types.js';
import { cleanupStores, deliveredChange, HOUR, insertAll, newMessage, storeDrivers, storePerTest, T0, twoAccounts, UNDELIVERABLE } from '../helpers/stores.js';

after(cleanupStores);

const rcs = (accountId: string, overrides: Partial<NewMessage> = {}): NewMessage =>
  newMessage(accountId, {
    api: 'rcs2',
    channel: 'RCS',
    content: { type: 'TEXT', text: 'Hi', suggestions: [{ type: 'REPLY', text: 'Yes', postbackData: 'yes' }] },
    encoding: 'RCS',
    webhook: { intermediateReport: false, notify: true, seenUrl: 'https://hooks.example.com/seen', receiveTriggeredFailoverReports: true },
    extras: { smsFailover: { text: 'Hi by SMS' } },
    ...overrides,
  });

for (const driver of storeDrivers()) {
  describe(`message channels on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('keeps an RCS message whole: its channel, content and webhooks; an SMS has no channel field', async () => {
      const { a } = await twoAccounts(store());
      const message = rcs(a.id);
      const sms = newMessage(a.id);
      await insertAll(store(), [message, sms]);
      const stored = await store().messages.get(a.id, message.messageId);
      assert.deepEqual(
        [stored?.channel, stored?.api, stored?.content, stored?.encoding, stored?.webhook, stored?.extras],
        ['RCS', 'rcs2', message.content, 'RCS', message.webhook, message.extras],
      );
      assert.equal('channel' in (await store().messages.get(a.id, sms.messageId))!, false);
    });

    it('lists logs of one channel and consumes reports of one API', async () => {
      const { a } = await twoAccounts(store());
      const message = rcs(a.id);
      const failover = newMessage(a.id, { api: 'rcs2', extras: { failoverOf: message.messageId } });
      const sms = newMessage(a.id);
      const [rcsPk, failoverPk, smsPk] = await insertAll(store(), [message, failover, sms]);
      const logs = async (channel?: 'SMS' | 'RCS') =>
        (await store().messages.listLogs({ accountId: a.id, since: 0, limit: 10, ...(channel ? { channel } : {}) })).map((m) => m.messageId).sort();
      assert.deepEqual(await logs('RCS'), [message.messageId]);
      assert.deepEqual(await logs('SMS'), [failover.messageId, sms.messageId].sort(), 'a failover SMS is an SMS');
      assert.deepEqual(await logs(), await logs('SMS'), 'SMS when no channel is named');

      await store().messages.applyStatusChanges([
        deliveredChange(message, rcsPk!, T0 + 1),
        deliveredChange(failover, failoverPk!, T0 + 2),
        deliveredChange(sms, smsPk!, T0 + 3),
      ]);
      const sms3 = await store().reports.consume({ accountId: a.id, since: 0, limit: 10 });
      assert.deepEqual(sms3.map((r) => r.messageId), [sms.messageId], 'the SMS APIs see only their own reports');
      const rcs2 = await store().reports.consume({ accountId: a.id, api: 'rcs', since: 0, limit: 10 });
      assert.deepEqual(
        rcs2.map((r) => [r.messageId, r.channel]),
        [[message.messageId, 'RCS'], [message.messageId, 'SMS']],
        'a failover reports under its RCS message id, naming its channel',
      );
    });

    it('inserts the message a change spawns only when the change applies, so a failover is made once', async () => {
      const { a } = await twoAccounts(store());
      const message = rcs(a.id);
      const [pk] = await insertAll(store(), [message]);
      const failover = (id: string) => newMessage(a.id, { messageId: id, api: 'rcs2', extras: { failoverOf: message.messageId } });
      const undelivered = (spawnId: string) => ({
        accountId: a.id,
        pk: pk!,
        status: UNDELIVERABLE,
        errorId: 7002,
        final: true,
        at: T0 + HOUR,
        spawn: failover(spawnId),
      });
      // The same trigger reported twice in one batch, then again later: only the first applies.
      await store().messages.applyStatusChanges([undelivered('failover-1'), undelivered('failover-2')]);
      await store().messages.applyStatusChanges([undelivered('failover-3')]);
      const spawned = await Promise.all(['failover-1', 'failover-2', 'failover-3'].map((id) => store().messages.get(a.id, id)));
      assert.deepEqual(spawned.map((m) => m?.extras?.failoverOf), [message.messageId, undefined, undefined]);
      assert.equal(spawned[0]?.state, 'queued', 'the failover waits for the dispatcher');
    });
  });
}
