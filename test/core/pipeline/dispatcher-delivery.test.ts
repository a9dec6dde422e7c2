import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import type { Store } from '../../../src/core/store/types.js';
import { HOUR, MINUTE, T0, cleanupStores, insertAll, newMessage, storeDrivers, storePerTest } from '../../helpers/stores.js';
import { finalMessage, messageInState, settle, startPipeline, statusOf, type Pipeline } from './pipeline-fixture.js';

after(cleanupStores);

for (const driver of storeDrivers()) {
  describe(`dispatcher delivery through the sandbox (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    let pipeline: Pipeline | undefined;
    let accountId = '';

    const start = async (clock: ManualClock, options: Parameters<typeof startPipeline>[2] = {}): Promise<Pipeline> => {
      accountId = (await store().accounts.ensure('acme', T0)).id;
      pipeline = await startPipeline(store(), clock, options);
      return pipeline;
    };
    const stopPipeline = async (): Promise<void> => {
      await pipeline?.stop();
      pipeline = undefined;
    };

    const pullReports = (s: Store) => s.reports.consume({ accountId, since: 0, limit: 100 });

    it('an idle dispatcher sleeps until the store\'s next due time instead of polling, and sends then', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      // A real-time limit on idle sleeps far beyond the test: only the due time can wake it.
      const p = await start(clock, { dispatcher: { pollMs: 10, idleMs: 600_000 } });
      const message = newMessage(accountId, { dueAt: T0 + HOUR });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      await settle(200);
      assert.equal((await store().messages.get(accountId, message.messageId))?.state, 'queued');

      clock.advance(HOUR);
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
      assert.equal(done.sentAt, T0 + HOUR);
    });

    it('delivers a queued message to DELIVERED_TO_HANDSET with a pull report and a phone entry', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock);
      const message = newMessage(accountId, { sender: 'ACME', destination: '41793026727', content: { text: 'code 1234' } });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();

      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
      assert.equal(done.errorId, ERROR.NO_ERROR.id);
      assert.equal(done.carrier, 'sandbox');
      assert.ok(done.carrierMessageId);
      assert.equal(done.sentAt, T0);
      assert.equal(done.doneAt, T0);

      const reports = await pullReports(store());
      assert.equal(reports.length, 1);
      assert.equal(reports[0]!.messageId, message.messageId);
      assert.deepEqual(reports[0]!.status, ref(STATUS.DELIVERED_TO_HANDSET));
      assert.equal(reports[0]!.sender, 'ACME');

      const inbox = await store().phones.list(accountId, '41793026727', 10);
      assert.equal(inbox.length, 1);
      assert.equal(inbox[0]!.text, 'code 1234');
      assert.equal(inbox[0]!.from, 'ACME');
      assert.equal(inbox[0]!.messageId, message.messageId);
      assert.equal(inbox[0]!.channel, 'SMS');
      const submitted = await p.metrics.messagesSubmitted.get();
      assert.deepEqual(submitted.values.map((v) => [v.labels.carrier, v.value]), [['sandbox', 1]]);
    });

    it('ends each built-in suffix with its documented status and error', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock);
      const cases = [
        { destination: '385911119001', status: STATUS.UNDELIVERABLE_NOT_DELIVERED, error: ERROR.EC_ABSENT_SUBSCRIBER_SM },
        { destination: '385911119002', status: STATUS.EXPIRED_EXPIRED, error: ERROR.EC_MESSAGE_EXPIRED },
        { destination: '385911119003', status: STATUS.REJECTED_NETWORK, error: ERROR.EC_OPERATOR_NOT_FOUND },
        { destination: '385911119000', status: STATUS.DELIVERED_TO_HANDSET, error: ERROR.NO_ERROR },
      ];
      const messages = cases.map((c) => newMessage(accountId, { destination: c.destination }));
      await insertAll(store(), messages);
      p.dispatcher.nudge();
      for (const [index, c] of cases.entries()) {
        const done = await finalMessage(store(), accountId, messages[index]!.messageId);
        assert.deepEqual(statusOf(done), ref(c.status), c.destination);
        assert.equal(done.errorId, c.error.id, c.destination);
      }
      // Only the delivered message reached its phone.
      assert.equal((await store().phones.list(accountId, '385911119000', 10)).length, 1);
      for (const number of ['385911119001', '385911119002', '385911119003']) {
        assert.equal((await store().phones.list(accountId, number, 10)).length, 0, number);
      }
      assert.equal((await pullReports(store())).length, 4);
    });

    it('9004 gets no receipt: pending until validUntil, then EXPIRED_DLR_UNKNOWN', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock);
      const message = newMessage(accountId, { destination: '41790009004', validUntil: T0 + 10 * MINUTE });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      await messageInState(store(), accountId, message.messageId, 'submitted');

      clock.advance(10 * MINUTE - 1);
      p.dispatcher.nudge();
      await settle();
      const waiting = await store().messages.get(accountId, message.messageId);
      assert.equal(waiting?.state, 'submitted');
      assert.equal((await pullReports(store())).length, 0);

      clock.advance(2);
      p.dispatcher.nudge();
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.EXPIRED_DLR_UNKNOWN));
      assert.equal(done.errorId, ERROR.EC_VALIDITY_EXPIRED.id);
      const reports = await pullReports(store());
      assert.equal(reports.length, 1);
      assert.deepEqual(reports[0]!.status, ref(STATUS.EXPIRED_DLR_UNKNOWN));
    });

    it('does not submit a scheduled message before its dueAt', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock);
      const message = newMessage(accountId, { dueAt: T0 + HOUR, validUntil: T0 + 2 * HOUR });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      await settle();
      assert.equal((await store().messages.get(accountId, message.messageId))?.state, 'queued');

      clock.advance(HOUR);
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
      assert.equal(done.sentAt, T0 + HOUR);
    });

    it('expires a message whose validity ended before dispatch with EXPIRED_EXPIRED', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0 + 5 * MINUTE);
      const p = await start(clock);
      const message = newMessage(accountId, { dueAt: T0, validUntil: T0 + MINUTE });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.EXPIRED_EXPIRED));
      assert.equal(done.errorId, ERROR.EC_VALIDITY_EXPIRED.id);
      assert.equal(done.carrierMessageId, undefined);
      assert.equal((await store().phones.list(accountId, message.destination, 10)).length, 0);
      const reports = await pullReports(store());
      assert.equal(reports.length, 1);
      assert.deepEqual(reports[0]!.status, ref(STATUS.EXPIRED_EXPIRED));
    });

    it('puts a message outside its delivery window back until the window opens', async (t) => {
      t.after(stopPipeline);
      const monday = Date.UTC(2025, 0, 6, 12);
      const tuesdayNine = Date.UTC(2025, 0, 7, 9);
      const clock = new ManualClock(monday);
      const p = await start(clock);
      const message = newMessage(accountId, {
        createdAt: monday,
        dueAt: monday,
        validUntil: monday + 48 * HOUR,
        deliveryWindow: { days: ['TUESDAY'], from: { hour: 9, minute: 0 }, to: { hour: 10, minute: 0 } },
      });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      const requeued = await eventuallyAttempts(store(), accountId, message.messageId, 1);
      assert.equal(requeued.attempts, 1);
      assert.equal(requeued.dueAt, tuesdayNine);

      clock.set(tuesdayNine - 1);
      p.dispatcher.nudge();
      await settle();
      assert.equal((await store().messages.get(accountId, message.messageId))?.state, 'queued');

      clock.set(tuesdayNine);
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
      assert.equal(done.sentAt, tuesdayNine);
    });

    it('a window opening after validUntil lets the message expire at validUntil', async (t) => {
      t.after(stopPipeline);
      const monday = Date.UTC(2025, 0, 6, 12);
      const clock = new ManualClock(monday);
      const p = await start(clock);
      const message = newMessage(accountId, {
        dueAt: monday,
        validUntil: monday + HOUR,
        deliveryWindow: { days: ['TUESDAY'] },
      });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      const queued = await eventuallyAttempts(store(), accountId, message.messageId, 1);
      assert.equal(queued.dueAt, monday + HOUR);

      clock.set(monday + HOUR);
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.EXPIRED_EXPIRED));
    });

    it('ends a message the network refuses for good with the refusal status', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock, { rules: [{ match: { prefix: '4420' }, outcome: 'REFUSED' }] });
      const message = newMessage(accountId, { destination: '442071234567' });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR));
      assert.equal(done.errorId, ERROR.EC_SMS_REJECTED_BY_MOBILE_OPERATOR.id);
      assert.equal(done.carrierMessageId, undefined);
      assert.equal((await pullReports(store())).length, 1);
    });

    it('retries a throttled message with backoff until its validity ends', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock, { rules: [{ match: { number: '442071234567' }, outcome: 'THROTTLED' }] });
      const message = newMessage(accountId, { destination: '442071234567', validUntil: T0 + 8 * 1000 });
      await insertAll(store(), [message]);
      p.dispatcher.nudge();
      const first = await eventuallyAttempts(store(), accountId, message.messageId, 1);
      assert.equal(first.state, 'queued');
      assert.equal(first.dueAt, T0 + 5000);

      clock.set(T0 + 5000);
      const second = await eventuallyAttempts(store(), accountId, message.messageId, 2);
      assert.equal(second.state, 'queued');
      // 10 s of backoff would pass validUntil: the retry is due exactly when the message expires.
      assert.equal(second.dueAt, T0 + 8000);

      clock.set(T0 + 8000);
      const done = await finalMessage(store(), accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.EXPIRED_EXPIRED));
      assert.equal(done.errorId, ERROR.EC_VALIDITY_EXPIRED.id);
    });
  });
}

async function eventuallyAttempts(store: Store, accountId: string, messageId: string, attempts: number) {
  for (let i = 0; i < 500; i++) {
    const message = await store.messages.get(accountId, messageId);
    if (message && message.attempts >= attempts && message.state === 'queued') return message;
    await settle(10);
  }
  throw new Error(`message never reached ${attempts} attempts`);
}
