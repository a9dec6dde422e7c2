import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PhoneMessage } from '../../src/core/store/types.js';
import { cleanupStores, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

const NUMBER = '41793026727';

for (const driver of storeDrivers()) {
  describe(driver.name, () => {
    const store = storePerTest(driver);

    it('lists a number\'s messages newest first, limited', async () => {
      const { a } = await twoAccounts(store());
      const at = (receivedAt: number, text: string): PhoneMessage => ({ accountId: a.id, number: NUMBER, channel: 'SMS', text, receivedAt });
      await store().phones.record(at(T0 + 2, 'second'));
      await store().phones.recordMany([at(T0 + 1, 'first'), at(T0 + 3, 'third'), at(T0 + 3, 'third-later')]);

      const texts = (list: PhoneMessage[]) => list.map((m) => m.text);
      assert.deepEqual(texts(await store().phones.list(a.id, NUMBER, 10)), ['third-later', 'third', 'second', 'first']);
      assert.deepEqual(texts(await store().phones.list(a.id, NUMBER, 2)), ['third-later', 'third']);
    });

    it('returns every field as recorded', async () => {
      const { a } = await twoAccounts(store());
      const full: PhoneMessage = {
        accountId: a.id,
        number: NUMBER,
        channel: 'SMS',
        from: 'InfoSMS',
        text: 'Your code is 1234',
        messageId: 'm-1',
        receivedAt: T0,
        payload: { encoding: 'GSM7', parts: 1 },
      };
      const minimal: PhoneMessage = { accountId: a.id, number: NUMBER, channel: 'VOICE', receivedAt: T0 + 1 };
      await store().phones.recordMany([full, minimal]);
      assert.deepEqual(await store().phones.list(a.id, NUMBER, 10), [minimal, full]);
    });

    it('keeps numbers and accounts apart', async () => {
      const { a, b } = await twoAccounts(store());
      await store().phones.recordMany([
        { accountId: a.id, number: NUMBER, channel: 'SMS', text: 'a', receivedAt: T0 },
        { accountId: a.id, number: '385911234567', channel: 'SMS', text: 'other number', receivedAt: T0 },
        { accountId: b.id, number: NUMBER, channel: 'SMS', text: 'b', receivedAt: T0 },
      ]);
      assert.deepEqual((await store().phones.list(a.id, NUMBER, 10)).map((m) => m.text), ['a']);
      assert.deepEqual((await store().phones.list(b.id, NUMBER, 10)).map((m) => m.text), ['b']);
      assert.deepEqual(await store().phones.list(b.id, '385911234567', 10), []);
    });

    it('accepts an empty batch', async () => {
      await store().phones.recordMany([]);
    });
  });
}
