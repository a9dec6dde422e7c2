import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Metrics } from '../../src/core/metrics.js';
import type { Store } from '../../src/core/store/types.js';
import { MessageWriter } from '../../src/sms/accept/message-writer.js';
import { readV3Request } from '../../src/sms/accept/read-v3.js';
import { SmsAcceptor } from '../../src/sms/accept/sms-acceptor.js';
import type { SendV3Body } from '../../src/sms/schemas/send-v3.js';
import { cleanupStores, storeDrivers, storePerTest, T0, twoAccounts } from '../helpers/stores.js';

after(cleanupStores);

function acceptorFor(store: Store): { acceptor: SmsAcceptor; metrics: Metrics } {
  const metrics = new Metrics({ defaultMetrics: false });
  return { acceptor: new SmsAcceptor({ store, writer: new MessageWriter({ store }), metrics }), metrics };
}

const body = (destinations: Array<{ to: string; messageId?: string }>, text = 'hello'): SendV3Body => ({
  messages: [{ destinations, content: { text } }],
});

async function counter(metrics: Metrics, name: string): Promise<Record<string, number>> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const out: Record<string, number> = {};
  for (const value of metric?.values ?? []) out[Object.values(value.labels).join('/')] = value.value;
  return out;
}

for (const driver of storeDrivers()) {
  describe(`SmsAcceptor on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('stores accepted messages as queued and rejected ones as final, and counts both', async () => {
      const { a } = await twoAccounts(store());
      const { acceptor, metrics } = acceptorFor(store());
      const outcome = await acceptor.accept(a.id, readV3Request(body([{ to: '41793026727' }, { to: 'nobody' }]), T0), T0);

      assert.match(outcome.bulkId, /^[0-9a-f-]{36}$/);
      const [ok, bad] = outcome.entries;
      assert.equal(ok!.status.name, 'PENDING_ACCEPTED');
      assert.equal(bad!.status.name, 'REJECTED_DESTINATION');
      const stored = await store().messages.get(a.id, ok!.messageId);
      assert.equal(stored?.state, 'queued');
      assert.equal(stored?.bulkId, outcome.bulkId);
      assert.deepEqual(stored?.content, { text: 'hello' });
      const rejected = await store().messages.get(a.id, bad!.messageId);
      assert.equal(rejected?.state, 'final');
      assert.deepEqual(rejected?.status, { groupId: 5, id: 52 });
      assert.equal(rejected?.destination, 'nobody');

      assert.deepEqual(await counter(metrics, 'switchboard_messages_accepted_total'), { 'sms/sms3': 1 });
      assert.deepEqual(await counter(metrics, 'switchboard_messages_rejected_total'), { 'sms/REJECTED_DESTINATION': 1 });
    });

    it('rejects a caller id used by an earlier request of the account, and keeps the original', async () => {
      const { a } = await twoAccounts(store());
      const { acceptor } = acceptorFor(store());
      await acceptor.accept(a.id, readV3Request(body([{ to: '411', messageId: 'order-1' }], 'first'), T0), T0);
      const again = await acceptor.accept(a.id, readV3Request(body([{ to: '412', messageId: 'order-1' }], 'second'), T0), T0);

      assert.equal(again.entries[0]!.status.name, 'REJECTED_DUPLICATE_MESSAGE_ID');
      assert.equal(again.entries[0]!.messageId, 'order-1');
      const stored = await store().messages.get(a.id, 'order-1');
      assert.deepEqual(stored?.content, { text: 'first' });
      assert.equal(stored?.destination, '411');
    });

    it('lets two accounts use the same caller id', async () => {
      const { a, b } = await twoAccounts(store());
      const { acceptor } = acceptorFor(store());
      const inA = await acceptor.accept(a.id, readV3Request(body([{ to: '411', messageId: 'shared' }]), T0), T0);
      const inB = await acceptor.accept(b.id, readV3Request(body([{ to: '412', messageId: 'shared' }]), T0), T0);
      assert.equal(inA.entries[0]!.status.name, 'PENDING_ACCEPTED');
      assert.equal(inB.entries[0]!.status.name, 'PENDING_ACCEPTED');
      assert.equal((await store().messages.get(b.id, 'shared'))?.destination, '412');
    });

    it('turns a duplicate found only at insert (concurrent requests) into a rejected entry', async () => {
      const { a } = await twoAccounts(store());
      const { acceptor } = acceptorFor(store());
      // Both pass the existence check before either is written; the insert decides.
      const [first, second] = await Promise.all([
        acceptor.accept(a.id, readV3Request(body([{ to: '411', messageId: 'race' }]), T0), T0),
        acceptor.accept(a.id, readV3Request(body([{ to: '412', messageId: 'race' }]), T0), T0),
      ]);
      const statuses = [first.entries[0]!.status.name, second.entries[0]!.status.name].sort();
      assert.deepEqual(statuses, ['PENDING_ACCEPTED', 'REJECTED_DUPLICATE_MESSAGE_ID']);
      const winner = first.entries[0]!.status.name === 'PENDING_ACCEPTED' ? '411' : '412';
      assert.equal((await store().messages.get(a.id, 'race'))?.destination, winner);
    });

    it('uses the caller bulk id for every message of the request', async () => {
      const { a } = await twoAccounts(store());
      const { acceptor } = acceptorFor(store());
      const request = readV3Request({ ...body([{ to: '411' }, { to: '412' }]), options: { schedule: { bulkId: 'campaign-7' } } }, T0);
      const outcome = await acceptor.accept(a.id, request, T0);
      assert.equal(outcome.bulkId, 'campaign-7');
      for (const entry of outcome.entries) assert.equal((await store().messages.get(a.id, entry.messageId))?.bulkId, 'campaign-7');
    });
  });
}
