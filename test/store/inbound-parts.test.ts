import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { InboundMessage, InboundPartInput } from '../../src/core/store/types.js';
import { cleanupStores, MINUTE, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

const part = (accountId: string, seq: number, text: string, receivedAt = T0, setKey = 'set-1', total = 3): InboundPartInput => ({
  accountId,
  setKey,
  from: '41793026727',
  to: '447860099299',
  total,
  seq,
  text,
  receivedAt,
});

const message = (accountId: string, text: string): InboundMessage => ({
  accountId,
  messageId: randomUUID(),
  from: '41793026727',
  to: '447860099299',
  text,
  cleanText: text,
  receivedAt: T0,
  smsCount: 3,
});

for (const driver of storeDrivers()) {
  describe(`${driver.name}: parts of concatenated inbound messages`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('keeps parts until the set is complete, in any order, then hands the set back in order', async () => {
      const { a } = await twoAccounts(store());
      assert.deepEqual(await store().inbound.addPart(part(a.id, 3, '!', T0 + 2)), { kind: 'kept' });
      assert.deepEqual(await store().inbound.addPart(part(a.id, 1, 'hello', T0)), { kind: 'kept' });
      assert.deepEqual(await store().inbound.addPart(part(a.id, 1, 'hello', T0 + 1)), { kind: 'kept' }, 'a part sent again does not complete it');
      const outcome = await store().inbound.addPart(part(a.id, 2, ' world', T0 + 3));
      assert.equal(outcome.kind, 'complete');
      assert.deepEqual(outcome.kind === 'complete' && outcome.set, {
        accountId: a.id,
        setKey: 'set-1',
        from: '41793026727',
        to: '447860099299',
        total: 3,
        parts: [
          { seq: 1, text: 'hello', receivedAt: T0 + 1 },
          { seq: 2, text: ' world', receivedAt: T0 + 3 },
          { seq: 3, text: '!', receivedAt: T0 + 2 },
        ],
      });
    });

    it('stores the message of a set once, and knows a part sent again after that for a repeat', async () => {
      const { a } = await twoAccounts(store());
      await store().inbound.addPart(part(a.id, 1, 'a', T0, 's', 2));
      await store().inbound.addPart(part(a.id, 2, 'b', T0, 's', 2));
      const completes = { accountId: a.id, setKey: 's', at: T0 + 5 };
      assert.equal(await store().inbound.insert(message(a.id, 'ab'), { pullable: true, completes }), true);
      assert.equal(await store().inbound.insert(message(a.id, 'ab'), { pullable: true, completes }), false, 'another node completing the same set stores nothing');
      assert.deepEqual(await store().inbound.addPart(part(a.id, 2, 'b', T0 + 6, 's', 2)), { kind: 'repeat' });
      const pulled = await store().inbound.consume({ accountId: a.id, since: 0, limit: 10 });
      assert.deepEqual(pulled.messages.map((m) => m.text), ['ab']);
    });

    it('starts a done set again when a different part comes under its key (a reused reference)', async () => {
      const { a } = await twoAccounts(store());
      await store().inbound.addPart(part(a.id, 1, 'a', T0, 's', 2));
      await store().inbound.addPart(part(a.id, 2, 'b', T0, 's', 2));
      await store().inbound.insert(message(a.id, 'ab'), { pullable: true, completes: { accountId: a.id, setKey: 's', at: T0 } });
      assert.deepEqual(await store().inbound.addPart(part(a.id, 2, 'y', T0 + MINUTE, 's', 2)), { kind: 'kept' });
      const outcome = await store().inbound.addPart(part(a.id, 1, 'x', T0 + MINUTE, 's', 2));
      assert.deepEqual(outcome.kind === 'complete' && outcome.set.parts.map((p) => p.text), ['x', 'y']);
    });

    it('lists sets left incomplete since a time or earlier, oldest first, and purges done sets', async () => {
      const { a, b } = await twoAccounts(store());
      await store().inbound.addPart(part(a.id, 1, 'old', T0, 'old'));
      await store().inbound.addPart(part(a.id, 3, 'er', T0 + 1, 'old'));
      await store().inbound.addPart(part(b.id, 2, 'young', T0 + 10 * MINUTE, 'young'));
      assert.deepEqual(await store().inbound.listStaleSets(T0 - 1, 10), []);
      const stale = await store().inbound.listStaleSets(T0, 10);
      assert.deepEqual(stale.map((s) => [s.accountId, s.setKey, s.parts.map((p) => p.text)]), [[a.id, 'old', ['old', 'er']]]);
      await store().inbound.insert(message(a.id, 'older'), { pullable: true, completes: { accountId: a.id, setKey: 'old', at: T0 + 2 * MINUTE } });
      assert.deepEqual(await store().inbound.listStaleSets(T0 + 11 * MINUTE, 10).then((sets) => sets.map((s) => s.setKey)), ['young']);
      assert.equal(await store().inbound.purgeDoneSets(T0 + 2 * MINUTE), 0, 'done at T0 + 2 min: kept until then');
      assert.equal(await store().inbound.purgeDoneSets(T0 + 2 * MINUTE + 1), 1);
      assert.deepEqual(await store().inbound.addPart(part(a.id, 1, 'old', T0 + 20 * MINUTE, 'old')), { kind: 'kept' }, 'purged: a new set');
    });
  });
}
