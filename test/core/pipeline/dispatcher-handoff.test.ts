import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { Dispatcher, DEFAULT_LEASE_MS } from '../../../src/core/pipeline/dispatcher.js';
import { HandoffSlots } from '../../../src/core/pipeline/handoff-slots.js';
import { STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import type { ClaimedMessage, NewMessage, Store } from '../../../src/core/store/types.js';
import { PrefixRouter } from '../../../src/network/routing/prefix-router.js';
import { sandboxOnlyRouting } from '../../../src/network/routing/routing-config.js';
import { T0, cleanupStores, insertAll, newMessage, storeDrivers, storePerTest } from '../../helpers/stores.js';
import { Metrics } from '../../../src/core/metrics.js';
import { PipelinePerTest, capturingLogger, eventually, finalMessage, messageInState, settle, silentLogger, statusOf } from './pipeline-fixture.js';

after(cleanupStores);

/** Stores the messages as acceptance does for a handoff, claimed until `leaseUntil`, and returns them as handed over. */
async function storedClaimed(store: Store, messages: NewMessage[], leaseUntil: number): Promise<ClaimedMessage[]> {
  const rows = messages.map((m): NewMessage => ({ ...m, state: 'dispatching', leaseUntil }));
  const pks = await insertAll(store, rows);
  return rows.map((row, i) => ({ ...row, pk: pks[i]!, attempts: 1, leaseUntil }));
}

/** The store, with a count of the dispatcher's claims from it. */
function countingClaims(store: Store): { store: Store; claims: () => number } {
  let claims = 0;
  const bound = (target: object, key: string | symbol): unknown => {
    const value: unknown = Reflect.get(target, key);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const messages = new Proxy(store.messages, {
    get: (target, key) => {
      if (key !== 'claimDue') return bound(target, key);
      return (...args: Parameters<Store['messages']['claimDue']>) => {
        claims++;
        return target.claimDue(...args);
      };
    },
  });
  return { store: new Proxy(store, { get: (target, key) => (key === 'messages' ? messages : bound(target, key)) }), claims: () => claims };
}

for (const driver of storeDrivers()) {
  describe(`dispatcher handoff (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const suite = new PipelinePerTest(store);
    const { start, stop: stopPipeline } = suite;

    it('delivers handed-over messages without claiming them and frees their slots', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const slots = new HandoffSlots(10);
      const p = await start(clock, { dispatcher: { handoffSlots: slots } });
      const messages = [newMessage(suite.accountId, { content: { text: 'one' } }), newMessage(suite.accountId, { content: { text: 'two' } })];
      const claimed = await storedClaimed(store(), messages, T0 + DEFAULT_LEASE_MS);
      assert.equal(slots.reserve(2), 2);

      p.dispatcher.handOff(claimed);

      for (const message of messages) {
        const done = await finalMessage(store(), suite.accountId, message.messageId);
        assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
        assert.equal(done.attempts, 1, 'a claim would have counted a second attempt');
      }
      assert.equal(slots.inUse, 0);
      const inbox = await store().phones.list(suite.accountId, messages[0]!.destination, 10);
      assert.deepEqual(inbox.map((entry) => entry.text).sort(), ['one', 'two']);
    });

    it('leaves a message whose lease is half gone to the store, where a claim takes it once the lease ends', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const { log, lines } = capturingLogger();
      const p = await start(clock, { log });
      const message = newMessage(suite.accountId);
      const claimed = await storedClaimed(store(), [message], T0 + DEFAULT_LEASE_MS);
      clock.set(T0 + DEFAULT_LEASE_MS / 2 + 1);

      p.dispatcher.handOff(claimed);
      await eventually(async () => (lines.some((line) => line.msg === 'handed-over messages left to their lease') ? true : undefined));
      await settle();

      assert.equal((await store().messages.get(suite.accountId, message.messageId))?.state, 'dispatching');
      clock.set(T0 + DEFAULT_LEASE_MS + 1);
      p.dispatcher.nudge();
      const done = await finalMessage(store(), suite.accountId, message.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
      assert.equal(done.attempts, 2);
    });

    it('claims messages waiting in the store alongside handed-over ones', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock, { dispatcher: { batchSize: 2 } });
      const queued = [newMessage(suite.accountId), newMessage(suite.accountId), newMessage(suite.accountId)];
      await insertAll(store(), queued);
      const handed = [newMessage(suite.accountId), newMessage(suite.accountId), newMessage(suite.accountId), newMessage(suite.accountId)];

      p.dispatcher.handOff(await storedClaimed(store(), handed, T0 + DEFAULT_LEASE_MS));

      for (const message of [...queued, ...handed]) {
        const done = await finalMessage(store(), suite.accountId, message.messageId);
        assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET), message.messageId);
      }
    });

    it('asks the store nothing for rounds of handed-over messages alone, and claims from it after a nudge', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock);
      // Only its sandbox and recorder are used; this dispatcher polls the store once a minute.
      await p.dispatcher.stop();
      const counted = countingClaims(store());
      const dispatcher = new Dispatcher({
        store: counted.store,
        clock,
        router: new PrefixRouter(sandboxOnlyRouting().routes, new Map([[p.sandbox.name, p.sandbox]])),
        recorder: p.recorder,
        metrics: new Metrics({ defaultMetrics: false }),
        log: silentLogger(),
        pollMs: 60_000,
        idleMs: 60_000,
      });
      t.after(() => dispatcher.stop());
      await dispatcher.start();
      await eventually(async () => (counted.claims() > 0 ? true : undefined));
      await settle();
      const atStart = counted.claims();

      for (let round = 0; round < 3; round++) {
        const handed = [newMessage(suite.accountId), newMessage(suite.accountId)];
        dispatcher.handOff(await storedClaimed(store(), handed, T0 + DEFAULT_LEASE_MS));
        for (const message of handed) await finalMessage(store(), suite.accountId, message.messageId);
      }
      assert.equal(counted.claims(), atStart, 'rounds of handed-over messages claimed from the store');

      const queued = newMessage(suite.accountId);
      await insertAll(store(), [queued]);
      dispatcher.nudge();
      const done = await finalMessage(store(), suite.accountId, queued.messageId);
      assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET));
      assert.equal(counted.claims(), atStart + 1);
    });

    it('puts handed-over messages it did not take back in the queue when it stops', async (t) => {
      t.after(stopPipeline);
      const clock = new ManualClock(T0);
      const p = await start(clock);
      // Only its sandbox and recorder are used: its own dispatcher would claim the message put back.
      await p.dispatcher.stop();
      const slots = new HandoffSlots(10);
      // Never started, so nothing is taken: only stop() touches what was handed over.
      const dispatcher = new Dispatcher({
        store: store(),
        clock,
        router: new PrefixRouter(sandboxOnlyRouting().routes, new Map([[p.sandbox.name, p.sandbox]])),
        recorder: p.recorder,
        metrics: new Metrics({ defaultMetrics: false }),
        log: silentLogger(),
        handoffSlots: slots,
      });
      const message = newMessage(suite.accountId);
      slots.reserve(1);
      dispatcher.handOff(await storedClaimed(store(), [message], T0 + DEFAULT_LEASE_MS));

      await dispatcher.stop();

      assert.equal(slots.inUse, 0);
      const back = await messageInState(store(), suite.accountId, message.messageId, 'queued');
      assert.equal(back.dueAt, message.dueAt);
      const claimed = await store().messages.claimDue(T0, 10, T0 + DEFAULT_LEASE_MS);
      assert.deepEqual(claimed.map((m) => m.messageId), [message.messageId]);
    });
  });
}
