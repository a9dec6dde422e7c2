import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import { T0, cleanupStores, closeStore, insertAll, newMessage, storeDrivers, storePerTest } from '../../helpers/stores.js';
import { capturingLogger, eventually, finalMessage, messageInState, settle, startPipeline, statusOf } from './pipeline-fixture.js';

after(cleanupStores);

for (const driver of storeDrivers()) {
  describe(`dispatcher resilience (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('a receipt pending at shutdown arrives after a restart on the same store', async () => {
      const clock = new ManualClock(T0);
      const { id: accountId } = await store().accounts.ensure('acme', T0);
      const first = await startPipeline(store(), clock, { latencyMs: 2000 });
      const message = newMessage(accountId);
      await insertAll(store(), [message]);
      first.dispatcher.nudge();
      const submitted = await messageInState(store(), accountId, message.messageId, 'submitted');
      await first.stop();

      // The first sandbox is gone: time passing now produces nothing.
      clock.advance(2000);
      await settle();
      assert.equal((await store().messages.get(accountId, message.messageId))?.state, 'submitted');

      const second = await startPipeline(store(), clock, { latencyMs: 2000 });
      try {
        const done = await finalMessage(store(), accountId, message.messageId);
        assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
        assert.equal(done.carrierMessageId, submitted.carrierMessageId);
        // The receipt keeps its original time: sent at T0, delivered 2 s later.
        assert.equal(done.doneAt, T0 + 2000);
        assert.equal((await store().phones.list(accountId, message.destination, 10)).length, 1);
      } finally {
        await second.stop();
      }
    });

    it('a resumed receipt not yet due waits for the clock', async () => {
      const clock = new ManualClock(T0);
      const { id: accountId } = await store().accounts.ensure('acme', T0);
      const first = await startPipeline(store(), clock, { latencyMs: 5000 });
      const message = newMessage(accountId);
      await insertAll(store(), [message]);
      first.dispatcher.nudge();
      await messageInState(store(), accountId, message.messageId, 'submitted');
      await first.stop();

      const second = await startPipeline(store(), clock, { latencyMs: 5000 });
      try {
        clock.advance(4999);
        await settle();
        assert.equal((await store().messages.get(accountId, message.messageId))?.state, 'submitted');
        clock.advance(1);
        assert.equal((await finalMessage(store(), accountId, message.messageId)).doneAt, T0 + 5000);
      } finally {
        await second.stop();
      }
    });

    it('two dispatchers sharing one store never submit a message twice', async () => {
      const clock = new ManualClock(T0);
      const { id: accountId } = await store().accounts.ensure('acme', T0);
      const messages = Array.from({ length: 300 }, (_, i) =>
        newMessage(accountId, { destination: `4179${String(i).padStart(7, '0')}` }),
      );
      await insertAll(store(), messages);
      const options = { dispatcher: { batchSize: 20 } };
      const [a, b] = await Promise.all([startPipeline(store(), clock, options), startPipeline(store(), clock, options)]);
      try {
        a.dispatcher.nudge();
        b.dispatcher.nudge();
        for (const message of messages) await finalMessage(store(), accountId, message.messageId, 10_000);
        for (const message of messages) {
          const inbox = await store().phones.list(accountId, message.destination, 10);
          assert.equal(inbox.length, 1, `phone ${message.destination} got ${inbox.length} messages`);
        }
        const submittedBy = async (p: typeof a) => (await p.metrics.messagesSubmitted.get()).values[0]?.value ?? 0;
        assert.equal((await submittedBy(a)) + (await submittedBy(b)), messages.length);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });

    it('stop() waits for the round in progress and claims nothing afterwards', async () => {
      const clock = new ManualClock(T0);
      const { id: accountId } = await store().accounts.ensure('acme', T0);
      const pipeline = await startPipeline(store(), clock);
      const early = newMessage(accountId);
      await insertAll(store(), [early]);
      pipeline.dispatcher.nudge();
      await finalMessage(store(), accountId, early.messageId);
      await pipeline.stop();

      const late = newMessage(accountId);
      await insertAll(store(), [late]);
      pipeline.dispatcher.nudge();
      await settle();
      const stored = await store().messages.get(accountId, late.messageId);
      assert.equal(stored?.state, 'queued');
      assert.equal(stored?.attempts, 0);
    });

    it('keeps running through store errors and logs them', async () => {
      const clock = new ManualClock(T0);
      const { log, lines } = capturingLogger('error');
      const broken = await driver.open();
      const pipeline = await startPipeline(broken, clock, { log, dispatcher: { errorDelayMs: 10 } });
      await closeStore(broken);
      await eventually(async () => (lines.filter((l) => l.msg.includes('dispatcher round failed')).length >= 2 ? true : undefined));
      await pipeline.stop();
    });
  });
}
