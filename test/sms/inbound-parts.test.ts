import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualClock } from '../../src/core/clock.js';
import { Metrics } from '../../src/core/metrics.js';
import { SubscriptionMatcher } from '../../src/core/subscriptions/matcher.js';
import type { Store } from '../../src/core/store/types.js';
import type { InboundSmsPart } from '../../src/network/carrier.js';
import { InboundService } from '../../src/sms/inbound/inbound-service.js';
import { cleanupStores, MINUTE, storeDrivers, storePerTest, T0 } from '../helpers/stores.js';

after(cleanupStores);

/** A node's inbound service; two on one store are two nodes. */
const node = (store: Store, clock: ManualClock): InboundService =>
  new InboundService({
    store,
    clock,
    metrics: new Metrics({ defaultMetrics: false }),
    log: pino({ level: 'silent' }),
    subscriptions: new SubscriptionMatcher({ store, clock }),
    onWebhooksQueued: () => undefined,
  });

for (const driver of storeDrivers()) {
  describe(`concatenated inbound messages in the store (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    async function setup(): Promise<{ clock: ManualClock; accountId: string; part(seq: number, text: string, reference?: number, total?: number): InboundSmsPart; inbox(): Promise<Array<{ text: string; smsCount: number; receivedAt: number }>> }> {
      const clock = new ManualClock(T0);
      const accountId = (await store().accounts.ensure('acme', T0)).id;
      return {
        clock,
        accountId,
        part: (seq, text, reference = 7, total = 3) => ({ accountId, from: '41793026727', to: '447860099299', reference, total, seq, text, receivedAt: clock.now() }),
        inbox: async () => (await store().inbound.consume({ accountId, since: 0, limit: 100 })).messages.map((m) => ({ text: m.text, smsCount: m.smsCount, receivedAt: m.receivedAt })),
      };
    }

    it('makes the message when its last part comes, whichever node received the others', async () => {
      const { clock, part, inbox } = await setup();
      const [one, two] = [node(store(), clock), node(store(), clock)];
      await one.receivePart(part(2, ' world'));
      clock.advance(10);
      await two.receivePart(part(3, '!'));
      assert.deepEqual(await inbox(), [], 'nothing before the last part');
      clock.advance(10);
      await node(store(), clock).receivePart(part(1, 'hello'));
      assert.deepEqual(await inbox(), [{ text: 'hello world!', smsCount: 3, receivedAt: T0 + 20 }]);
    });

    it('stores one message when two nodes receive its last parts at once, and none for a part sent again', async () => {
      const { clock, part, inbox } = await setup();
      const [one, two] = [node(store(), clock), node(store(), clock)];
      await Promise.all(Array.from({ length: 10 }, (_, reference) => [one.receivePart(part(1, `a${reference}`, reference, 2)), two.receivePart(part(2, 'b', reference, 2))]).flat());
      const texts = (await inbox()).map((m) => m.text).sort();
      assert.deepEqual(texts, Array.from({ length: 10 }, (_, reference) => `a${reference}b`).sort());
      await two.receivePart(part(2, 'b', 3, 2));
      assert.deepEqual(await inbox(), [], 'a part the SMSC sent again after the message was made');
    });

    it('stores what arrived of an incomplete message after ten minutes, once, by any node', async () => {
      const { clock, part, inbox } = await setup();
      const [one, two] = [node(store(), clock), node(store(), clock)];
      await one.receivePart(part(1, 'first'));
      clock.advance(MINUTE);
      await two.receivePart(part(3, ' third'));
      clock.advance(9 * MINUTE - 1);
      await one.expireParts();
      assert.deepEqual(await inbox(), [], 'not yet ten minutes since its first part');
      clock.advance(1);
      await Promise.all([one.expireParts(), two.expireParts()]);
      assert.deepEqual(await inbox(), [{ text: 'first third', smsCount: 2, receivedAt: T0 + MINUTE }], 'the parts that came, in order, counted as they came');
      await one.receivePart(part(2, ' second'));
      clock.advance(10 * MINUTE);
      await one.expireParts();
      assert.deepEqual(await inbox(), [{ text: ' second', smsCount: 1, receivedAt: T0 + 10 * MINUTE }], 'a part coming after its set expired arrives on its own');
    });
  });
}
