import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { HandoffSlots } from '../../src/core/pipeline/handoff-slots.js';
import type { ClaimedMessage, NewMessage, Store } from '../../src/core/store/types.js';
import { MessageWriter, type Handoff } from '../../src/sms/accept/message-writer.js';
import { HOUR, REJECTED, T0, cleanupStores, newMessage, storeDrivers, storePerTest, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

const LEASE = 10_000;

/** A handoff to a list instead of a dispatcher: what the writer hands over is what a test reads. */
function collecting(limit: number, clock = new ManualClock(T0)): Handoff & { received: ClaimedMessage[] } {
  const received: ClaimedMessage[] = [];
  return { slots: new HandoffSlots(limit), clock, leaseMs: LEASE, deliver: (messages) => void received.push(...messages), received };
}

/** The real store, failing every insertMany that holds a row `failOn` picks. */
function failing(store: Store, failOn: (message: NewMessage) => boolean): Store {
  const real = store.messages;
  const messages = Object.create(real) as Store['messages'];
  messages.insertMany = async (rows) => {
    if (rows.some(failOn)) throw new Error('row refused');
    return real.insertMany(rows);
  };
  const wrapped = Object.create(store) as Store;
  Object.defineProperty(wrapped, 'messages', { value: messages });
  return wrapped;
}

describe('HandoffSlots', () => {
  it('grants up to the limit, shares the count through its buffer, and frees on release', () => {
    const slots = new HandoffSlots(5);
    const otherThreadView = new HandoffSlots(5, slots.buffer);
    assert.equal(slots.reserve(3), 3);
    assert.equal(otherThreadView.reserve(4), 2, 'only what is left');
    assert.equal(slots.reserve(1), 0);
    otherThreadView.release(4);
    assert.equal(slots.inUse, 1);
    assert.equal(slots.reserve(10), 4);
  });
});

for (const driver of storeDrivers()) {
  describe(`MessageWriter handoff on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('stores messages due now claimed and hands them over, so no claim takes them before the lease ends', async () => {
      const { a } = await twoAccounts(store());
      const handoff = collecting(100);
      const writer = new MessageWriter({ store: store(), handoff });
      const messages = [newMessage(a.id), newMessage(a.id)];

      const pks = await writer.write(messages);

      assert.deepEqual(handoff.received.map((m) => [m.messageId, m.pk, m.state, m.attempts, m.leaseUntil]), [
        [messages[0]!.messageId, pks[0], 'dispatching', 1, T0 + LEASE],
        [messages[1]!.messageId, pks[1], 'dispatching', 1, T0 + LEASE],
      ]);
      assert.equal(handoff.received[0]!.destination, messages[0]!.destination);
      assert.deepEqual(handoff.received[0]!.content, messages[0]!.content);
      const stored = await store().messages.get(a.id, messages[0]!.messageId);
      assert.equal(stored?.state, 'dispatching');
      assert.equal(stored?.attempts, 1);
      assert.equal(messages[0]!.state, 'queued', "the caller's message is not changed");
      assert.deepEqual(await store().messages.claimDue(T0 + LEASE - 1, 10, T0 + 2 * LEASE), []);
      const afterLease = await store().messages.claimDue(T0 + LEASE + 1, 10, T0 + 3 * LEASE);
      assert.deepEqual(afterLease.map((m) => [m.pk, m.attempts]).sort(), [
        [pks[0], 2],
        [pks[1], 2],
      ]);
      assert.equal(handoff.slots.inUse, 2, 'the slots are the dispatcher’s to free');
    });

    it('records the node whose dispatcher holds them, so that if it dies another takes them over before the lease ends', async () => {
      const { a } = await twoAccounts(store());
      const handoff = { ...collecting(100), nodeId: 'acceptor' };
      const writer = new MessageWriter({ store: store(), handoff });
      const [pk] = await writer.write([newMessage(a.id)]);
      await store().nodes.beat('acceptor', T0);

      assert.equal(await store().messages.releaseClaims(['acceptor'], T0 + 1), 1);
      assert.deepEqual((await store().messages.claimDue(T0 + 1, 10, T0 + LEASE, 'survivor')).map((m) => m.pk), [pk]);
    });

    it('stores scheduled, windowed and rejected messages as given and hands none of them over', async () => {
      const { a } = await twoAccounts(store());
      const handoff = collecting(100);
      const writer = new MessageWriter({ store: store(), handoff });
      const scheduled = newMessage(a.id, { dueAt: T0 + HOUR });
      const windowed = newMessage(a.id, { deliveryWindow: { days: ['MONDAY'] } });
      const rejected = newMessage(a.id, { state: 'final', status: REJECTED });

      await writer.write([scheduled, windowed, rejected]);

      assert.deepEqual(handoff.received, []);
      assert.equal(handoff.slots.inUse, 0);
      assert.equal((await store().messages.get(a.id, scheduled.messageId))?.state, 'queued');
      assert.equal((await store().messages.get(a.id, windowed.messageId))?.state, 'queued');
      assert.equal((await store().messages.get(a.id, rejected.messageId))?.state, 'final');
    });

    it('wakes the dispatcher only for batches that leave it something to claim', async () => {
      const { a } = await twoAccounts(store());
      let nudges = 0;
      const writer = new MessageWriter({ store: store(), handoff: collecting(100), onCommitted: () => nudges++ });

      await writer.write([newMessage(a.id), newMessage(a.id)]);
      assert.equal(nudges, 0, 'handed over: the messages themselves wake it');
      await writer.write([newMessage(a.id, { state: 'final', status: REJECTED })]);
      assert.equal(nudges, 0, 'nothing to send');
      await writer.write([newMessage(a.id, { dueAt: T0 + HOUR })]);
      assert.equal(nudges, 1, 'a scheduled message is for a claim');
    });

    it('hands over only as many as there are free slots; the rest are queued for a claim', async () => {
      const { a } = await twoAccounts(store());
      const handoff = collecting(2);
      let nudges = 0;
      const writer = new MessageWriter({ store: store(), handoff, onCommitted: () => nudges++ });
      const messages = [newMessage(a.id), newMessage(a.id), newMessage(a.id)];

      await writer.write(messages);
      assert.equal(nudges, 1, 'the queued one needs a claim');

      assert.deepEqual(handoff.received.map((m) => m.messageId), [messages[0]!.messageId, messages[1]!.messageId]);
      assert.equal((await store().messages.get(a.id, messages[2]!.messageId))?.state, 'queued');
      const claimed = await store().messages.claimDue(T0, 10, T0 + LEASE);
      assert.deepEqual(claimed.map((m) => m.messageId), [messages[2]!.messageId]);
    });

    it('gives back the slot of a duplicate, which is neither stored again nor handed over', async () => {
      const { a } = await twoAccounts(store());
      await store().messages.insertMany([newMessage(a.id, { messageId: 'taken', dueAt: T0 + HOUR })]);
      const handoff = collecting(10);
      const writer = new MessageWriter({ store: store(), handoff });
      const fresh = newMessage(a.id);

      const results = await writer.write([newMessage(a.id, { messageId: 'taken' }), fresh]);

      await writer.flush();
      assert.equal(results[0], 'duplicate');
      assert.deepEqual(handoff.received.map((m) => m.messageId), [fresh.messageId]);
      assert.equal(handoff.slots.inUse, 1);
      assert.equal((await store().messages.get(a.id, 'taken'))?.state, 'queued', 'the first one is untouched');
    });

    it('hands over only what was committed when the store refuses part of a batch', async () => {
      const { a } = await twoAccounts(store());
      const handoff = collecting(10);
      const writer = new MessageWriter({ store: failing(store(), (m) => m.messageId === 'poison'), handoff });
      const good = newMessage(a.id);

      const outcomes = await Promise.allSettled([writer.write([good]), writer.write([newMessage(a.id, { messageId: 'poison' })])]);

      await writer.flush();
      assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected']);
      assert.deepEqual(handoff.received.map((m) => m.messageId), [good.messageId], 'the good caller, stored on its own retry');
      assert.equal(handoff.slots.inUse, 1);
    });

    it('frees the slots when the dispatcher cannot take the messages, which stay stored and leased', async () => {
      const { a } = await twoAccounts(store());
      const slots = new HandoffSlots(10);
      const handoff: Handoff = {
        slots,
        clock: new ManualClock(T0),
        leaseMs: LEASE,
        deliver: () => {
          throw new Error('the engine thread is not running');
        },
      };
      const writer = new MessageWriter({ store: store(), handoff });
      const message = newMessage(a.id);

      const [pk] = await writer.write([message]);

      await writer.flush();
      assert.equal(typeof pk, 'number', 'still acknowledged: it is stored');
      assert.equal(slots.inUse, 0);
      assert.equal((await store().messages.get(a.id, message.messageId))?.state, 'dispatching');
      const claimed = await store().messages.claimDue(T0 + LEASE + 1, 10, T0 + 2 * LEASE);
      assert.deepEqual(claimed.map((m) => m.messageId), [message.messageId]);
    });
  });
}
