import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { OutboxItem, PinRecord, WebhookAttempt } from '../../src/core/store/types.js';
import {
  cleanupStores,
  DELIVERED,
  insertAll,
  MINUTE,
  newMessage,
  storeDrivers,
  storePerTest,
  T0,
  twoAccounts,
  webhookItem,
} from '../helpers/stores.js';

after(cleanupStores);

function pin(accountId: string, applicationId: string, createdAt: number, overrides: Partial<PinRecord> = {}): PinRecord {
  return {
    accountId,
    pinId: randomBytes(16).toString('hex').toUpperCase(),
    applicationId,
    messageId: 'MSG',
    msisdn: '41793026727',
    pinType: 'NUMERIC',
    pinLength: 6,
    pinHash: 'hash',
    createdAt,
    expiresAt: createdAt + 15 * MINUTE,
    maxAttempts: 3,
    wrongAttempts: 0,
    allowMultipleVerifications: false,
    sentAt: createdAt,
    ...overrides,
  };
}

function attempt(item: OutboxItem, overrides: Partial<Omit<WebhookAttempt, 'id'>> = {}): Omit<WebhookAttempt, 'id'> {
  return {
    accountId: item.accountId,
    url: item.url,
    itemIds: [item.id],
    payloadCount: item.payloadCount,
    attemptNo: 1,
    startedAt: T0 + 1,
    durationMs: 5,
    httpStatus: 500,
    outcome: 'retry',
    ...overrides,
  };
}

for (const driver of storeDrivers()) {
  describe(`console reads on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('browses messages of every channel newest first, by each filter, in one account only', async () => {
      const { a, b } = await twoAccounts(store());
      const [sms, rcs, binary, card, other] = await insertAll(store(), [
        newMessage(a.id, { destination: '41790000001', sender: 'ACME', content: { text: 'Your Code is 1234' }, bulkId: 'B1' }),
        newMessage(a.id, { destination: '41790000002', channel: 'RCS', api: 'rcs2', encoding: 'RCS', content: { type: 'TEXT', text: 'hello rcs' } }),
        newMessage(a.id, { destination: '41790000003', content: { hex: 'C0FFEE' }, encoding: 'BINARY' }),
        newMessage(a.id, { destination: '41790000002', channel: 'RCS', api: 'rcs2', encoding: 'RCS', content: { type: 'CARD', content: { title: 'Big Sale', description: 'today only' } } }),
        newMessage(b.id, { destination: '41790000001', content: { text: 'code for b' } }),
      ]);
      await store().messages.applyStatusChanges([{ accountId: a.id, pk: binary!, status: DELIVERED, errorId: 0, final: true, at: T0 + 1 }]);
      const browse = async (filter: Record<string, unknown>) =>
        (await store().messages.browse({ accountId: a.id, since: T0, limit: 100, ...filter })).map((m) => m.pk);

      assert.deepEqual(await browse({}), [card, binary, rcs, sms]);
      assert.deepEqual(await browse({ limit: 2 }), [card, binary]);
      assert.deepEqual(await browse({ beforePk: binary }), [rcs, sms]);
      assert.deepEqual(await browse({ pks: [sms!, card!, other!] }), [card, sms]);
      assert.deepEqual(await browse({ channel: 'RCS' }), [card, rcs]);
      assert.deepEqual(await browse({ channel: 'SMS' }), [binary, sms]);
      assert.deepEqual(await browse({ numbers: ['41790000002'] }), [card, rcs]);
      assert.deepEqual(await browse({ numbers: ['ACME'] }), [sms]);
      assert.deepEqual(await browse({ statusGroupId: DELIVERED.groupId }), [binary]);
      assert.deepEqual(await browse({ bulkId: 'B1' }), [sms]);
      assert.deepEqual(await browse({ text: 'code' }), [sms]);
      assert.deepEqual(await browse({ text: 'SALE' }), [card]);
      assert.deepEqual(await browse({ text: 'only' }), [card]);
      assert.deepEqual(await browse({ text: 'c0ff' }), [binary]);
      assert.deepEqual(await browse({ since: T0 + 1 }), []);
      assert.equal((await store().messages.browse({ accountId: b.id, since: T0, limit: 100 }))[0]?.pk, other);
    });

    it('summarises the phones of an account and lists what a phone sent only when asked', async () => {
      const { a, b } = await twoAccounts(store());
      const [first, second] = await insertAll(store(), [
        newMessage(a.id, { destination: '41790000001', content: { text: 'one' } }),
        newMessage(a.id, { destination: '41790000001', content: { text: 'two' } }),
      ]);
      await store().phones.recordSms([
        { accountId: a.id, pk: first!, number: '41790000001', at: T0 + 1 },
        { accountId: a.id, pk: second!, number: '41790000001', at: T0 + 2 },
      ]);
      await store().phones.recordMany([
        { accountId: a.id, number: '41790000002', channel: 'VOICE', from: '41000', text: 'hello caller', receivedAt: T0 + 3 },
        { accountId: a.id, number: '41790000001', channel: 'SMS', direction: 'sent', to: '447860099299', text: 'reply', receivedAt: T0 + 4 },
        { accountId: b.id, number: '41790000009', channel: 'SMS', text: 'b only', receivedAt: T0 + 9 },
      ]);

      const summaries = await store().phones.summaries(a.id, 10);
      assert.deepEqual(summaries, [
        { number: '41790000001', lastAt: T0 + 4, received: 2, sent: 1, last: { text: 'reply' } },
        { number: '41790000002', lastAt: T0 + 3, received: 1, sent: 0, last: { text: 'hello caller' } },
      ]);
      assert.equal((await store().phones.summaries(a.id, 1)).length, 1);

      const received = await store().phones.list(a.id, '41790000001', 10);
      assert.deepEqual(received.map((m) => m.text), ['two', 'one']);
      const all = await store().phones.list(a.id, '41790000001', 10, { includeSent: true });
      assert.deepEqual(all.map((m) => [m.text, m.direction ?? 'received', m.to]), [
        ['reply', 'sent', '447860099299'],
        ['two', 'received', undefined],
        ['one', 'received', undefined],
      ]);
    });

    it('gives the last received content of a phone whose newest entry is a message', async () => {
      const { a } = await twoAccounts(store());
      const [pk] = await insertAll(store(), [
        newMessage(a.id, { destination: '41790000005', channel: 'RCS', api: 'rcs2', encoding: 'RCS', content: { type: 'TEXT', text: 'rich' } }),
      ]);
      await store().phones.recordSms([{ accountId: a.id, pk: pk!, number: '41790000005', at: T0 + 1 }]);
      const [summary] = await store().phones.summaries(a.id, 10);
      assert.deepEqual(summary?.last, { content: { type: 'TEXT', text: 'rich' } });
    });

    it("lists an application's PINs newest first and keeps the channel of the last send", async () => {
      const { a, b } = await twoAccounts(store());
      const older = pin(a.id, 'APP', T0);
      const newer = pin(a.id, 'APP', T0 + 1, { channel: 'VOICE' });
      await store().pins.create(older);
      await store().pins.create(newer);
      await store().pins.create(pin(a.id, 'OTHER', T0 + 2));
      await store().pins.create(pin(b.id, 'APP', T0 + 3));

      const listed = await store().pins.listForApplication(a.id, 'APP', 10);
      assert.deepEqual(listed.map((p) => [p.pinId, p.channel]), [[newer.pinId, 'VOICE'], [older.pinId, undefined]]);
      await store().pins.markSent(a.id, older.pinId, T0 + 5, 'ext-2', 'VOICE');
      assert.equal((await store().pins.get(a.id, older.pinId))?.channel, 'VOICE');
      await store().pins.markSent(a.id, older.pinId, T0 + 6, 'ext-3');
      assert.equal((await store().pins.get(a.id, older.pinId))?.channel, 'VOICE');
      assert.equal((await store().pins.listForApplication(a.id, 'APP', 1)).length, 1);
    });

    it('keeps the start of the answer with an attempt, and finds the attempts of an item', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([webhookItem(a.id, { url: 'https://one.example/' }), webhookItem(a.id, { url: 'https://two.example/' })]);
      const [one, two] = (await store().outbox.listItems(a.id, undefined, 10)).reverse();
      await store().outbox.recordAttempt(attempt(one!, { responseBody: 'busy, try later', responseContentType: 'text/plain' }), { state: 'pending', dueAt: T0 + MINUTE });
      await store().outbox.recordAttempt(attempt(two!, { httpStatus: 200, outcome: 'delivered' }), { state: 'delivered' });

      const attempts = await store().outbox.attemptsOfItems(a.id, [one!.id], T0);
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0]!.responseBody, 'busy, try later');
      assert.equal(attempts[0]!.responseContentType, 'text/plain');
      assert.deepEqual(await store().outbox.attemptsOfItems(a.id, [one!.id], T0 + 2), []);
      assert.equal((await store().outbox.getItem(a.id, two!.id))?.state, 'delivered');
      assert.deepEqual((await store().outbox.listItems(a.id, undefined, 10, 'https://two.example/')).map((i) => i.id), [two!.id]);
    });

    it('finds the items that carried a message, within its window', async () => {
      const { a } = await twoAccounts(store());
      await store().outbox.enqueue([
        webhookItem(a.id, { url: 'https://one.example/', payload: { messageId: 'M-1', status: { id: 5 } }, createdAt: T0 + 10 }),
        webhookItem(a.id, { url: 'https://two.example/', payload: { messageId: 'M-10' }, createdAt: T0 + 10 }),
        webhookItem(a.id, { url: 'https://three.example/', payload: { messageId: 'M-1' }, createdAt: T0 + MINUTE }),
      ]);
      const found = await store().outbox.itemsCarrying(a.id, 'M-1', { since: T0, until: T0 + 100 }, 10);
      assert.deepEqual(found.map((item) => item.url), ['https://one.example/']);
      assert.equal((await store().outbox.itemsCarrying(a.id, 'M-1', { since: T0, until: T0 + MINUTE }, 10)).length, 2);
    });

    it('retries a failed item now with its attempts kept, leaves a delivered one, knows no other account', async () => {
      const { a, b } = await twoAccounts(store());
      await store().outbox.enqueue([webhookItem(a.id, { url: 'https://failing.example/' }), webhookItem(a.id, { url: 'https://fine.example/' })]);
      const [failing, fine] = (await store().outbox.listItems(a.id, undefined, 10)).reverse();
      await store().outbox.recordAttempt(attempt(failing!, { outcome: 'failed', attemptNo: 3 }), { state: 'failed' });
      await store().outbox.recordAttempt(attempt(fine!, { outcome: 'delivered', httpStatus: 204 }), { state: 'delivered' });

      const retried = await store().outbox.retryNow(a.id, failing!.id, T0 + 7);
      assert.equal(retried.kind, 'retried');
      assert.deepEqual(retried.kind === 'retried' && [retried.item.state, retried.item.dueAt, retried.item.attempts], ['pending', T0 + 7, 1]);
      const [claimed] = await store().outbox.claimDue(T0 + 7, 10, T0 + MINUTE);
      assert.equal(claimed?.id, failing!.id);
      assert.equal((await store().outbox.retryNow(a.id, fine!.id, T0 + 7)).kind, 'delivered');
      assert.equal((await store().outbox.retryNow(b.id, failing!.id, T0 + 7)).kind, 'unknown');
    });

    it('summarises targets with their item states and last attempt', async () => {
      const { a, b } = await twoAccounts(store());
      await store().outbox.enqueue([
        webhookItem(a.id, { url: 'https://one.example/' }),
        webhookItem(a.id, { url: 'https://one.example/', format: 'sms-mo' }),
        webhookItem(a.id, { url: 'https://two.example/' }),
        webhookItem(b.id, { url: 'https://b.example/' }),
      ]);
      const items = (await store().outbox.listItems(a.id, undefined, 10)).reverse();
      await store().outbox.recordAttempt(attempt(items[0]!, { httpStatus: 503, outcome: 'retry' }), { state: 'pending', dueAt: T0 + MINUTE });
      await store().outbox.recordAttempt(attempt(items[2]!, { httpStatus: undefined, error: 'ECONNREFUSED', outcome: 'failed', startedAt: T0 + 2 }), {
        state: 'failed',
      });

      const targets = (await store().outbox.targets(a.id)).sort((x, y) => x.url.localeCompare(y.url));
      assert.deepEqual(targets, [
        { url: 'https://one.example/', pending: 2, failed: 0, delivered: 0, retrying: 1, lastAttempt: { startedAt: T0 + 1, outcome: 'retry', httpStatus: 503 } },
        { url: 'https://two.example/', pending: 0, failed: 1, delivered: 0, retrying: 0, lastAttempt: { startedAt: T0 + 2, outcome: 'failed', error: 'ECONNREFUSED' } },
      ]);
    });
  });
}
