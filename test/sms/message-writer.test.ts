import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { NewMessage, Store } from '../../src/core/store/types.js';
import { MessageWriter } from '../../src/sms/accept/message-writer.js';
import { cleanupStores, newMessage, storeDrivers, storePerTest, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

/** The real store, with every insertMany batch size recorded (and optionally a row that fails). */
function observed(store: Store, failOn?: (message: NewMessage) => boolean): { store: Store; batches: number[] } {
  const batches: number[] = [];
  const real = store.messages;
  const messages = Object.create(real) as Store['messages'];
  messages.insertMany = async (rows) => {
    batches.push(rows.length);
    if (failOn !== undefined && rows.some(failOn)) throw new Error('row refused');
    return real.insertMany(rows);
  };
  const wrapped = Object.create(store) as Store;
  Object.defineProperty(wrapped, 'messages', { value: messages });
  return { store: wrapped, batches };
}

for (const driver of storeDrivers()) {
  describe(`MessageWriter on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('writes concurrent callers with one insertMany and gives each caller its own results', async () => {
      const { a } = await twoAccounts(store());
      const { store: spied, batches } = observed(store());
      let commits = 0;
      const writer = new MessageWriter({ store: spied, onCommitted: () => commits++ });
      const first = [newMessage(a.id), newMessage(a.id)];
      const second = [newMessage(a.id)];
      const third = [newMessage(a.id), newMessage(a.id), newMessage(a.id)];

      const results = await Promise.all([writer.write(first), writer.write(second), writer.write(third)]);

      assert.deepEqual(batches, [6]);
      assert.equal(commits, 1);
      assert.deepEqual(results.map((r) => r.length), [2, 1, 3]);
      const callers = [first, second, third];
      for (const [c, caller] of callers.entries()) {
        for (const [i, message] of caller.entries()) {
          const stored = await store().messages.get(a.id, message.messageId);
          assert.equal(stored?.pk, results[c]![i], `caller ${c} message ${i} got its own pk`);
        }
      }
    });

    it('reports a duplicate to the caller that sent it only', async () => {
      const { a } = await twoAccounts(store());
      const writer = new MessageWriter({ store: store() });
      await writer.write([newMessage(a.id, { messageId: 'taken' })]);

      const [mine, theirs] = await Promise.all([
        writer.write([newMessage(a.id), newMessage(a.id, { messageId: 'taken' })]),
        writer.write([newMessage(a.id)]),
      ]);
      assert.equal(typeof mine[0], 'number');
      assert.equal(mine[1], 'duplicate');
      assert.equal(typeof theirs[0], 'number');
    });

    it('flushes at maxBatch rows and accumulates the next batch while one is in flight', async () => {
      const { a } = await twoAccounts(store());
      const { store: spied, batches } = observed(store());
      const writer = new MessageWriter({ store: spied, maxBatch: 2 });
      const writes = [1, 1, 1, 1, 1].map(() => writer.write([newMessage(a.id)]));
      await Promise.all(writes);
      assert.deepEqual(batches, [2, 2, 1]);
    });

    it('stores up to maxInFlight batches at once, the next ones waiting their turn', async () => {
      const { a } = await twoAccounts(store());
      const real = store().messages;
      let running = 0;
      let most = 0;
      const gates: Array<() => void> = [];
      const messages = Object.create(real) as Store['messages'];
      messages.insertMany = async (rows) => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((open) => gates.push(open));
        running--;
        return real.insertMany(rows);
      };
      const writer = new MessageWriter({ store: { messages }, maxBatch: 1, maxInFlight: 2 });
      let settled = 0;
      const writes = [1, 2, 3, 4, 5].map(() => writer.write([newMessage(a.id)]).finally(() => settled++));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(gates.length, 2, 'two batches started, three wait');
      while (settled < writes.length) {
        gates.shift()?.();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const results = await Promise.all(writes);
      assert.ok(results.every(([pk]) => typeof pk === 'number'));
      assert.equal(most, 2);
    });

    it('never splits one caller across batches', async () => {
      const { a } = await twoAccounts(store());
      const { store: spied, batches } = observed(store());
      const writer = new MessageWriter({ store: spied, maxBatch: 2 });
      const big = [newMessage(a.id), newMessage(a.id), newMessage(a.id)];
      const [results] = await Promise.all([writer.write(big), writer.write([newMessage(a.id)])]);
      assert.deepEqual(batches, [3, 1]);
      assert.equal(results.length, 3);
    });

    it('fails every caller of a batch the store cannot commit, and acknowledges nothing', async () => {
      const { a } = await twoAccounts(store());
      const writer = new MessageWriter({ store: store() });
      const first = newMessage(a.id);
      const second = newMessage(a.id);
      // Written before the store is closed below, so insertMany runs against a closed store.
      const settled = Promise.allSettled([writer.write([first]), writer.write([second])]);
      await store().close();
      const outcomes = await settled;
      assert.deepEqual(outcomes.map((o) => o.status), ['rejected', 'rejected']);
    });

    it('fails only the caller whose rows cannot be stored when others share its batch', async () => {
      const { a } = await twoAccounts(store());
      const { store: spied } = observed(store(), (m) => m.messageId === 'poison');
      const writer = new MessageWriter({ store: spied });
      const good = newMessage(a.id);
      const outcomes = await Promise.allSettled([
        writer.write([good]),
        writer.write([newMessage(a.id, { messageId: 'poison' })]),
      ]);
      assert.equal(outcomes[0]!.status, 'fulfilled');
      assert.equal(outcomes[1]!.status, 'rejected');
      assert.ok(await store().messages.get(a.id, good.messageId), 'the good caller was stored');
      assert.equal(await store().messages.get(a.id, 'poison'), undefined);
    });

    it('flush waits for queued and in-flight writes', async () => {
      const { a } = await twoAccounts(store());
      const writer = new MessageWriter({ store: store() });
      const message = newMessage(a.id);
      let written = false;
      void writer.write([message]).then(() => (written = true));
      await writer.flush();
      assert.equal(written, true);
      assert.ok(await store().messages.get(a.id, message.messageId));
      await writer.flush();
    });

    it('answers an empty write without touching the store', async () => {
      const { store: spied, batches } = observed(store());
      const writer = new MessageWriter({ store: spied });
      assert.deepEqual(await writer.write([]), []);
      assert.deepEqual(batches, []);
    });
  });
}
