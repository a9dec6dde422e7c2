import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { Metrics } from '../../src/core/metrics.js';
import type { Store } from '../../src/core/store/types.js';
import { SubscriptionMatcher } from '../../src/core/subscriptions/matcher.js';
import type { RcsEvents } from '../../src/network/rcs-network.js';
import { SandboxNetwork } from '../../src/network/sandbox/sandbox-network.js';
import { rcsEvents } from '../../src/rcs/events/rcs-events.js';
import { silentLogger } from '../core/pipeline/pipeline-fixture.js';
import { cleanupStores, DELIVERED, storeDrivers, storePerTest, T0 } from '../helpers/stores.js';
import { seedMessages } from '../sms/read-fixtures.js';
import { AGENT, seedRcs, USER } from './rcs-fixtures.js';

after(cleanupStores);

/** Pending webhook payloads of the account, each with its item's format and URL. */
async function queued(store: Store, accountId: string): Promise<Array<{ format: string; url: string; payload: any }>> {
  const items = await store.outbox.listItems(accountId, 'pending', 100);
  return items.flatMap((item) => (JSON.parse(item.payloads) as unknown[]).map((payload) => ({ format: item.format, url: item.url, payload })));
}

for (const driver of storeDrivers()) {
  describe(`RCS network events: what a provider or the sandbox's handset reports of its users (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    async function setUp() {
      const clock = new ManualClock(T0);
      const accountId = (await store().accounts.ensure('acme', T0)).id;
      await store().subscriptions.create({
        accountId,
        subscriptionId: 'mo',
        channel: 'RCS',
        events: ['INBOUND_MESSAGE'],
        profile: { profileId: 'mo', webhook: { notifyUrl: 'https://hooks.example.com/mo' } },
        createdAt: T0,
        updatedAt: T0,
      });
      let nudges = 0;
      const events = rcsEvents({
        store: store(),
        clock,
        metrics: new Metrics({ defaultMetrics: false }),
        subscriptions: new SubscriptionMatcher({ store: store(), clock, cacheMs: 0 }),
        nudgeWebhooks: () => void nudges++,
      });
      const [delivered, waiting] = await seedRcs(store(), accountId, T0, [
        { sentAt: T0, final: { status: DELIVERED, at: T0 }, webhook: { intermediateReport: false, notify: true, seenUrl: 'https://hooks.example.com/seen' } },
        { destination: '41790000001' },
      ]);
      return { clock, accountId, events, delivered: delivered!, waiting: waiting!, nudges: () => nudges };
    }

    it('queues the seen report of an RCS message a network names, and ignores what names none', async () => {
      const { accountId, events, delivered, nudges } = await setUp();
      const [sms] = await seedMessages(store(), accountId, T0, [{ sentAt: T0 }]);
      const handled = await events.seen([
        { accountId, messageId: delivered.messageId, seenAt: T0 + 5000 },
        { accountId, messageId: 'no-such-message', seenAt: T0 + 5000 },
        { accountId, messageId: sms!.messageId, seenAt: T0 + 5000 },
      ]);
      assert.deepEqual(handled, [{ accountId, messageId: delivered.messageId, pushed: 1 }]);
      const [item, ...rest] = await queued(store(), accountId);
      assert.deepEqual([item?.format, item?.url, item?.payload.messageId, item?.payload.from, item?.payload.to], ['rcs-seen', 'https://hooks.example.com/seen', delivered.messageId, USER, AGENT]);
      assert.deepEqual([rest, nudges()], [[], 1]);
    });

    it("pushes an end user's message to the INBOUND_MESSAGE subscription, paired with the message it answers", async () => {
      const { clock, accountId, events, delivered } = await setUp();
      const handled = await events.inbound([
        { accountId, from: USER, to: AGENT, content: { type: 'SUGGESTION', text: 'Thanks', postbackData: 'thanks' }, receivedAt: clock.now() },
        { accountId, from: '41790000000', to: AGENT, content: { type: 'LOCATION', latitude: 45.8, longitude: 15.97 }, receivedAt: clock.now() },
      ]);
      assert.deepEqual(handled.map((h) => [h.pairedMessageId, h.pushed]), [[delivered.messageId, 1], [undefined, 1]]);
      const items = await queued(store(), accountId);
      assert.deepEqual(
        items.map((i) => [i.format, i.payload.messageId, i.payload.message.type]),
        handled.map((h, i) => ['rcs-mo', h.messageId, ['SUGGESTION', 'LOCATION'][i]]),
      );
    });

    it("routes the sandbox handset's seen and inbound through the RCS events its network was started with", async () => {
      const { clock, accountId, events, delivered, waiting } = await setUp();
      const sandbox = new SandboxNetwork({ store: store(), clock, log: silentLogger(), latencyMs: 0, tickMs: 5 });
      const calls: string[] = [];
      const watched: RcsEvents = {
        seen: (seen) => (calls.push(`seen ${seen.map((s) => s.messageId)}`), events.seen(seen)),
        inbound: (messages) => (calls.push(`inbound ${messages.map((m) => m.content.type)}`), events.inbound(messages)),
      };
      await sandbox.start({ receipts: async () => {}, inbound: async () => {}, inboundPart: async () => {}, rcs: watched });
      try {
        assert.deepEqual(await sandbox.handset.see(accountId, waiting.messageId), { kind: 'not-on-handset', why: 'has not been sent yet' });
        assert.deepEqual(await sandbox.handset.see(accountId, delivered.messageId), { kind: 'reported', messageId: delivered.messageId, seenAt: T0, pushed: 1 });
        const written = await sandbox.handset.write(accountId, USER, AGENT, { type: 'TEXT', text: 'STOP' });
        assert.deepEqual([written.pairedMessageId, written.pushed], [delivered.messageId, 1]);
        assert.deepEqual(calls, [`seen ${delivered.messageId}`, 'inbound TEXT']);
      } finally {
        await sandbox.stop();
      }
      await assert.rejects(sandbox.handset.see(accountId, delivered.messageId), /not running/);
    });
  });
}
