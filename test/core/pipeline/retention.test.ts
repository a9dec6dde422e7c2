import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualClock } from '../../../src/core/clock.js';
import { RetentionSweeper } from '../../../src/core/pipeline/retention.js';
import { cleanupStores, deliveredChange, HOUR, insertAll, newMessage, storeDrivers, T0, twoAccounts } from '../../helpers/stores.js';

after(cleanupStores);

for (const driver of storeDrivers()) {
  describe(`retention (${driver.name})`, { skip: driver.skip }, () => {
    it('deletes finished messages older than the retention and keeps newer and unfinished ones', async () => {
      const store = await driver.open();
      const clock = new ManualClock(T0);
      const { a } = await twoAccounts(store);
      const old = newMessage(a.id);
      const queued = newMessage(a.id);
      const [oldPk] = await insertAll(store, [old, queued]);
      await store.messages.applyStatusChanges([deliveredChange(old, oldPk!, T0)]);
      // A pending pull report keeps its message: pulled, the message may go.
      await store.reports.consume({ accountId: a.id, since: 0, limit: 10 });
      const sweeper = new RetentionSweeper({ store, clock, log: pino({ level: 'silent' }), retentionMs: 72 * HOUR });

      clock.advance(71 * HOUR);
      assert.equal(await sweeper.runOnce(), 0);
      assert.ok(await store.messages.get(a.id, old.messageId));

      clock.advance(2 * HOUR);
      assert.equal(await sweeper.runOnce(), 1);
      assert.equal(await store.messages.get(a.id, old.messageId), undefined);
      assert.ok(await store.messages.get(a.id, queued.messageId), 'unfinished messages are never purged');
      await sweeper.stop();
    });

    it('deletes PINs expired before the retention, keeps those that still live, and drops ended rate windows', async () => {
      const store = await driver.open();
      const clock = new ManualClock(T0);
      const { a } = await twoAccounts(store);
      const pin = (pinId: string, expiresAt: number) => ({
        accountId: a.id,
        pinId,
        applicationId: 'APP',
        messageId: 'MSG',
        msisdn: '41793026727',
        pinType: 'NUMERIC' as const,
        pinLength: 4,
        pinHash: 'hash',
        createdAt: T0,
        expiresAt,
        maxAttempts: 10,
        wrongAttempts: 0,
        allowMultipleVerifications: true,
        sentAt: T0,
      });
      await store.pins.create(pin('SHORT', T0 + HOUR));
      await store.pins.create(pin('LONG', T0 + 1000 * HOUR));
      assert.equal(await store.rateWindows.take('window', HOUR, 1, T0), true);
      const sweeper = new RetentionSweeper({ store, clock, log: pino({ level: 'silent' }), retentionMs: 72 * HOUR });

      clock.advance(72 * HOUR);
      await sweeper.runOnce();
      assert.ok(await store.pins.get(a.id, 'SHORT'), 'expired for less than the retention');
      clock.advance(2 * HOUR);
      await sweeper.runOnce();
      assert.equal(await store.pins.get(a.id, 'SHORT'), undefined);
      assert.ok(await store.pins.get(a.id, 'LONG'), 'a PIN that still lives is kept, however old');
      assert.equal(await store.rateWindows.take('window', HOUR, 1, T0), true, 'the ended window was dropped, so it counts afresh');
      await sweeper.stop();
    });
  });
}
