import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { NewMessage, StoredMessage } from '../../src/core/store/types.js';
import { cleanupStores, insertAll, newMessage, REJECTED, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

/** What get() must return for a message just inserted. */
const asStored = (message: NewMessage, pk: number): StoredMessage => ({ ...message, pk, attempts: 0 });

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('insertMany returns increasing pks and get returns every field as written', async () => {
      const { a } = await twoAccounts(store());
      const full = newMessage(a.id, {
        sender: 'InfoSMS',
        content: { text: 'Grüße', transliteration: 'GERMAN', language: { languageCode: 'DE', singleShift: true } },
        encoding: 'UCS2',
        messageCount: 2,
        callbackData: 'cb',
        entityId: 'ent',
        applicationId: 'app',
        campaignReferenceId: 'camp',
        webhook: { url: 'https://hooks.example.com', intermediateReport: true, notify: true, contentType: 'application/json' },
        extras: { flash: true, tracking: { track: 'SMS', type: 'ONE_TIME' }, regional: null },
        deliveryWindow: { days: ['MONDAY', 'TUESDAY'], from: { hour: 8, minute: 0 }, to: { hour: 17, minute: 30 } },
        dueAt: T0 + 1000,
      });
      const minimal = newMessage(a.id);
      const binary = newMessage(a.id, { content: { hex: '0a0b0c', dataCoding: 4, esmClass: 64 }, encoding: 'BINARY' });

      const pks = await insertAll(store(), [full, minimal, binary]);
      assert.ok(pks[0]! < pks[1]! && pks[1]! < pks[2]!);
      assert.deepEqual(await store().messages.get(a.id, full.messageId), asStored(full, pks[0]!));
      assert.deepEqual(await store().messages.get(a.id, minimal.messageId), asStored(minimal, pks[1]!));
      assert.deepEqual(await store().messages.get(a.id, binary.messageId), asStored(binary, pks[2]!));
    });

    it('reports a duplicate inside one batch without failing the rest', async () => {
      const { a } = await twoAccounts(store());
      const first = newMessage(a.id, { content: { text: 'first' } });
      const repeat = { ...first, content: { text: 'second' } };
      const other = newMessage(a.id);

      const results = await store().messages.insertMany([first, repeat, other]);
      assert.equal(typeof results[0], 'number');
      assert.equal(results[1], 'duplicate');
      assert.equal(typeof results[2], 'number');
      assert.deepEqual((await store().messages.get(a.id, first.messageId))?.content, { text: 'first' });
      assert.ok(await store().messages.get(a.id, other.messageId));
    });

    it('reports a duplicate of an earlier batch without failing the rest', async () => {
      const { a } = await twoAccounts(store());
      const existing = newMessage(a.id);
      await insertAll(store(), [existing]);
      const fresh = newMessage(a.id);

      const results = await store().messages.insertMany([{ ...existing, destination: '999' }, fresh]);
      assert.equal(results[0], 'duplicate');
      assert.equal(typeof results[1], 'number');
      assert.equal((await store().messages.get(a.id, existing.messageId))?.destination, existing.destination);
    });

    it('scopes message ids per account', async () => {
      const { a, b } = await twoAccounts(store());
      const inA = newMessage(a.id, { messageId: 'shared-id' });
      const inB = newMessage(b.id, { messageId: 'shared-id', destination: '385911234567' });
      const results = await store().messages.insertMany([inA, inB]);
      assert.ok(results.every((r) => typeof r === 'number'));

      assert.equal((await store().messages.get(a.id, 'shared-id'))?.destination, inA.destination);
      assert.equal((await store().messages.get(b.id, 'shared-id'))?.destination, inB.destination);
      const onlyInA = newMessage(a.id);
      await insertAll(store(), [onlyInA]);
      assert.equal(await store().messages.get(b.id, onlyInA.messageId), undefined);
    });

    it('existingMessageIds returns only the ids present in that account', async () => {
      const { a, b } = await twoAccounts(store());
      await insertAll(store(), [newMessage(a.id, { messageId: 'm1' }), newMessage(a.id, { messageId: 'm2' })]);
      await insertAll(store(), [newMessage(b.id, { messageId: 'm3' })]);

      assert.deepEqual(await store().messages.existingMessageIds(a.id, ['m1', 'm3', 'm4']), new Set(['m1']));
      assert.deepEqual(await store().messages.existingMessageIds(b.id, ['m1', 'm2', 'm3']), new Set(['m3']));
      assert.deepEqual(await store().messages.existingMessageIds(a.id, []), new Set());
    });

    it('stores messages rejected at acceptance as final and never claims them', async () => {
      const { a } = await twoAccounts(store());
      const rejected = newMessage(a.id, { state: 'final', status: REJECTED, errorId: 14 });
      const [pk] = await insertAll(store(), [rejected]);

      assert.deepEqual(await store().messages.get(a.id, rejected.messageId), asStored(rejected, pk!));
      assert.deepEqual(await store().messages.claimDue(T0 + 1000, 10, T0 + 2000), []);
    });

    it('accepts an empty batch', async () => {
      assert.deepEqual(await store().messages.insertMany([]), []);
    });
  });
}
