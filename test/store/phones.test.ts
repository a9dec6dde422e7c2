import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PhoneMessage } from '../../src/core/store/types.js';
import { cleanupStores, insertAll, newMessage, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

const NUMBER = '41793026727';

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
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
      await store().phones.recordSms([]);
    });

    it('lists received SMS from the messages, with recorded entries, newest first and limited', async () => {
      const { a } = await twoAccounts(store());
      const text = newMessage(a.id, { destination: `+${NUMBER}`, sender: 'Bank', content: { text: 'code 1234' } });
      const binary = newMessage(a.id, { destination: NUMBER, content: { hex: '0048 0065' }, encoding: 'BINARY' });
      const notReceived = newMessage(a.id, { destination: NUMBER });
      const [textPk, binaryPk] = await insertAll(store(), [text, binary, notReceived]);
      await store().phones.recordSms([
        { accountId: a.id, pk: textPk!, number: NUMBER, at: T0 + 3 },
        { accountId: a.id, pk: binaryPk!, number: NUMBER, at: T0 + 1 },
      ]);
      const voice: PhoneMessage = { accountId: a.id, number: NUMBER, channel: 'VOICE', text: 'call', receivedAt: T0 + 2 };
      await store().phones.record(voice);

      const received = {
        accountId: a.id,
        number: NUMBER,
        channel: 'SMS',
        from: 'Bank',
        text: 'code 1234',
        messageId: text.messageId,
        receivedAt: T0 + 3,
      };
      const binaryEntry = { accountId: a.id, number: NUMBER, channel: 'SMS', text: '0048 0065', messageId: binary.messageId, receivedAt: T0 + 1 };
      assert.deepEqual(await store().phones.list(a.id, NUMBER, 10), [received, voice, binaryEntry]);
      assert.deepEqual(await store().phones.list(a.id, NUMBER, 2), [received, voice]);
    });

    it('never lists another account\'s received SMS', async () => {
      const { a, b } = await twoAccounts(store());
      const [pk] = await insertAll(store(), [newMessage(a.id, { destination: NUMBER })]);
      // A pk of account a with account b's id marks nothing.
      await store().phones.recordSms([{ accountId: b.id, pk: pk!, number: NUMBER, at: T0 }]);
      assert.deepEqual(await store().phones.list(a.id, NUMBER, 10), []);
      assert.deepEqual(await store().phones.list(b.id, NUMBER, 10), []);
      await store().phones.recordSms([{ accountId: a.id, pk: pk!, number: NUMBER, at: T0 }]);
      assert.equal((await store().phones.list(a.id, NUMBER, 10)).length, 1);
      assert.deepEqual(await store().phones.list(b.id, NUMBER, 10), []);
    });
  });
}
