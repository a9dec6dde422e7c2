import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { InboundFilter, InboundMessage } from '../../src/core/store/types.js';
import { cleanupStores, HOUR, storeDrivers, storePerTest, T0, twoAccounts, webhookItem } from '../helpers/stores.js';

after(cleanupStores);

function inboundMessage(accountId: string, overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    accountId,
    messageId: randomUUID(),
    from: '385916242493',
    to: '385921004026',
    text: 'QUIZ My answer is blue',
    cleanText: 'My answer is blue',
    keyword: 'QUIZ',
    receivedAt: T0,
    smsCount: 1,
    ...overrides,
  };
}

for (const driver of storeDrivers()) {
  describe(driver.name, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const consume = (filter: Partial<InboundFilter> & { accountId: string }) =>
      store().inbound.consume({ since: 0, limit: 100, ...filter });
    const insertPullable = async (messages: InboundMessage[]) => {
      for (const message of messages) await store().inbound.insert(message, { pullable: true });
    };

    it('consumes oldest first, once, with every field, and counts what remains', async () => {
      const { a } = await twoAccounts(store());
      const full = inboundMessage(a.id, { callbackData: 'cb', applicationId: 'app', entityId: 'ent', campaignReferenceId: 'camp' });
      const { keyword: _none, ...minimal } = inboundMessage(a.id, { receivedAt: T0 + 1 });
      const third = inboundMessage(a.id, { receivedAt: T0 + 2 });
      await insertPullable([full, minimal, third]);

      assert.deepEqual(await consume({ accountId: a.id, limit: 2 }), { messages: [full, minimal], pending: 1 });
      assert.deepEqual(await consume({ accountId: a.id, limit: 2 }), { messages: [third], pending: 0 });
      assert.deepEqual(await consume({ accountId: a.id }), { messages: [], pending: 0 });
    });

    it('never returns non-pullable messages but still enqueues their webhooks', async () => {
      const { a } = await twoAccounts(store());
      const hook = webhookItem(a.id, { format: 'sms-mo', payload: { results: [] } });
      await store().inbound.insert(inboundMessage(a.id), { pullable: false, webhooks: [hook] });

      assert.deepEqual(await consume({ accountId: a.id }), { messages: [], pending: 0 });
      const [item] = await store().outbox.listItems(a.id, 'pending', 10);
      assert.deepEqual([item?.format, JSON.parse(item?.payloads ?? 'null')], ['sms-mo', [{ results: [] }]]);
    });

    it('skips messages received before `since`', async () => {
      const { a } = await twoAccounts(store());
      const old = inboundMessage(a.id, { receivedAt: T0 });
      const recent = inboundMessage(a.id, { receivedAt: T0 + HOUR });
      await insertPullable([old, recent]);

      assert.deepEqual(await consume({ accountId: a.id, since: T0 + 1 }), { messages: [recent], pending: 0 });
      assert.deepEqual(await consume({ accountId: a.id }), { messages: [old], pending: 0 });
    });

    for (const field of ['applicationId', 'entityId', 'campaignReferenceId'] as const) {
      it(`filters by ${field}, and pending counts matching messages only`, async () => {
        const { a } = await twoAccounts(store());
        const wanted = [inboundMessage(a.id, { [field]: 'x' }), inboundMessage(a.id, { [field]: 'x' })];
        const other = inboundMessage(a.id, { [field]: 'y' });
        await insertPullable([wanted[0]!, other, wanted[1]!]);

        const filter: InboundFilter = { accountId: a.id, since: 0, limit: 1 };
        filter[field] = 'x';
        assert.deepEqual(await store().inbound.consume(filter), { messages: [wanted[0]], pending: 1 });
        assert.deepEqual(await consume({ accountId: a.id }), { messages: [other, wanted[1]], pending: 0 });
      });
    }

    it('never returns or counts another account\'s messages', async () => {
      const { a, b } = await twoAccounts(store());
      const ofA = inboundMessage(a.id);
      const ofB = inboundMessage(b.id);
      await insertPullable([ofA, inboundMessage(a.id), ofB]);

      assert.deepEqual(await consume({ accountId: b.id }), { messages: [ofB], pending: 0 });
      assert.deepEqual((await consume({ accountId: a.id, limit: 1 })).pending, 1);
    });
  });
}
