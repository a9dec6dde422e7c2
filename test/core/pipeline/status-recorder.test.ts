import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { Metrics } from '../../../src/core/metrics.js';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import { StatusRecorder } from '../../../src/core/pipeline/status-recorder.js';
import type { NewMessage, StoredMessage } from '../../../src/core/store/types.js';
import { SubscriptionMatcher } from '../../../src/core/subscriptions/matcher.js';
import type { CarrierReceipt } from '../../../src/network/carrier.js';
import { renderDeliveryReport } from '../../../src/sms/wire/report-shapes.js';
import { T0, cleanupStores, insertAll, newMessage, storeDrivers, storePerTest } from '../../helpers/stores.js';
import { silentLogger } from './pipeline-fixture.js';

after(cleanupStores);

const CARRIER = 'test-net';
const DELIVERED = ref(STATUS.DELIVERED_TO_HANDSET);
const ENROUTE = ref(STATUS.PENDING_ENROUTE);

const receipt = (carrierMessageId: string, overrides: Partial<CarrierReceipt> = {}): CarrierReceipt => ({
  carrierMessageId,
  status: DELIVERED,
  errorId: 0,
  final: true,
  at: T0 + 3000,
  ...overrides,
});

for (const driver of storeDrivers()) {
  describe(`StatusRecorder (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const clock = new ManualClock(T0 + 5000);
    let accountId = '';
    let nudges = 0;
    let metrics: Metrics;
    let recorder: StatusRecorder;

    beforeEach(async () => {
      accountId = (await store().accounts.ensure('acme', T0)).id;
      nudges = 0;
      metrics = new Metrics({ defaultMetrics: false });
      recorder = new StatusRecorder({
        store: store(),
        clock,
        metrics,
        log: silentLogger(),
        subscriptions: new SubscriptionMatcher({ store: store(), clock, cacheMs: 0 }),
        renderReport: renderDeliveryReport,
        onWebhooksQueued: () => void nudges++,
      });
    });

    /** Inserts, claims and marks submitted with carrier id `c-<index>`. */
    async function submitted(...messages: NewMessage[]): Promise<StoredMessage[]> {
      const pks = await insertAll(store(), messages);
      await store().messages.claimDue(T0, messages.length, T0 + 30_000);
      await store().messages.markSubmitted(
        pks.map((pk, i) => ({ accountId, pk, carrier: CARRIER, carrierMessageId: `c-${i}`, at: T0 + 1000 })),
      );
      return Promise.all(messages.map(async (m) => (await store().messages.get(accountId, m.messageId))!));
    }

    const get = async (m: NewMessage) => (await store().messages.get(accountId, m.messageId))!;
    const pulled = () => store().reports.consume({ accountId, since: 0, limit: 100 });
    /** Pending webhook payloads, each with its item's target. */
    const queued = async () =>
      (await store().outbox.listItems(accountId, 'pending', 100)).flatMap((item) =>
        (JSON.parse(item.payloads) as unknown[]).map((payload) => ({ ...item, payload })),
      );

    it('pushes a final report to the message webhook URL and leaves nothing to pull', async () => {
      const message = newMessage(accountId, { sender: 'ACME', webhook: { url: 'https://hooks.example.com/dlr', intermediateReport: false, notify: true } });
      await submitted(message);
      await recorder.recordReceipts(CARRIER, [receipt('c-0', { mccMnc: '22801' })]);

      const stored = await get(message);
      assert.equal(stored.state, 'final');
      assert.equal(stored.doneAt, T0 + 3000);
      assert.equal(stored.mccMnc, '22801');
      const items = await queued();
      assert.equal(items.length, 1);
      assert.equal(items[0]!.url, 'https://hooks.example.com/dlr');
      assert.equal(items[0]!.format, 'sms-dlr');
      const payload = items[0]!.payload as Record<string, unknown>;
      assert.equal(payload.messageId, message.messageId);
      assert.equal(payload.sender, 'ACME');
      assert.equal(payload.mccMnc, '22801');
      assert.equal(payload.sentAt, '2025-01-01T00:00:01.000+0000');
      assert.equal(payload.doneAt, '2025-01-01T00:00:03.000+0000');
      assert.equal((payload.status as { name: string }).name, 'DELIVERED_TO_HANDSET');
      assert.equal((await pulled()).length, 0);
      assert.equal(nudges, 1);
    });

    it('renders legacy-sent messages in the legacy report shape', async () => {
      const message = newMessage(accountId, { api: 'sms2', sender: 'ACME', webhook: { url: 'https://hooks.example.com/dlr', intermediateReport: false, notify: true } });
      await submitted(message);
      await recorder.recordReceipts(CARRIER, [receipt('c-0')]);
      const payload = (await queued())[0]!.payload as Record<string, unknown>;
      assert.equal(payload.from, 'ACME');
      assert.equal(payload.smsCount, 1);
      assert.equal(payload.sender, undefined);
    });

    it('notify:false pushes nothing and keeps the final report pullable', async () => {
      const message = newMessage(accountId, { webhook: { url: 'https://hooks.example.com/dlr', intermediateReport: true, notify: false } });
      await submitted(message);
      await recorder.recordReceipts(CARRIER, [receipt('c-0', { status: ENROUTE, final: false, at: T0 + 1500 }), receipt('c-0')]);
      assert.equal((await queued()).length, 0);
      const reports = await pulled();
      assert.equal(reports.length, 1);
      assert.deepEqual(reports[0]!.status, DELIVERED);
      assert.equal(nudges, 0);
    });

    it('without a message URL, pushes one item per matching DELIVERY subscription', async () => {
      const base = { accountId, channel: 'SMS', createdAt: T0, updatedAt: T0 };
      await store().subscriptions.create({
        ...base,
        subscriptionId: 'sub-a',
        events: ['DELIVERY'],
        profile: { profileId: 'p-a', webhook: { notifyUrl: 'https://a.example.com/dlr' } },
      });
      await store().subscriptions.create({
        ...base,
        subscriptionId: 'sub-b',
        events: ['DELIVERY', 'INBOUND_MESSAGE'],
        profile: {
          profileId: 'p-b',
          webhook: { notifyUrl: 'https://b.example.com/dlr' },
          security: { authId: 'x', type: 'BASIC', credentials: { username: 'u', password: 'p' } },
        },
      });
      await store().subscriptions.create({
        ...base,
        subscriptionId: 'sub-mo',
        events: ['INBOUND_MESSAGE'],
        profile: { profileId: 'p-c', webhook: { notifyUrl: 'https://c.example.com/mo' } },
      });
      const message = newMessage(accountId);
      await submitted(message);
      await recorder.recordReceipts(CARRIER, [receipt('c-0')]);

      const items = (await queued()).sort((x, y) => x.url.localeCompare(y.url));
      assert.deepEqual(items.map((i) => [i.url, i.subscriptionId]), [
        ['https://a.example.com/dlr', 'sub-a'],
        ['https://b.example.com/dlr', 'sub-b'],
      ]);
      assert.deepEqual(items[1]!.security, { type: 'BASIC', username: 'u', password: 'p' });
      assert.equal((await pulled()).length, 0);
    });

    it('an intermediate status is recorded but reported only when asked for, and only by push', async () => {
      const silent = newMessage(accountId, { webhook: { url: 'https://hooks.example.com/a', intermediateReport: false, notify: true } });
      const asked = newMessage(accountId, { webhook: { url: 'https://hooks.example.com/b', intermediateReport: true, notify: true } });
      const askedNoTarget = newMessage(accountId, { webhook: { intermediateReport: true, notify: true } });
      await submitted(silent, asked, askedNoTarget);
      await recorder.recordReceipts(CARRIER, ['c-0', 'c-1', 'c-2'].map((id) => receipt(id, { status: ENROUTE, final: false })));

      for (const m of [silent, asked, askedNoTarget]) {
        const stored = await get(m);
        assert.equal(stored.state, 'submitted');
        assert.deepEqual(stored.status, ENROUTE);
      }
      const items = await queued();
      assert.deepEqual(items.map((i) => i.url), ['https://hooks.example.com/b']);
      assert.equal(((items[0]!.payload as { status: { name: string } }).status).name, 'PENDING_ENROUTE');
      assert.equal((await pulled()).length, 0);
    });

    it('ignores unknown carrier ids and messages already final', async () => {
      const message = newMessage(accountId);
      await submitted(message);
      await recorder.recordReceipts(CARRIER, [receipt('nobody-knows-me')]);
      await recorder.recordReceipts('other-net', [receipt('c-0')]);
      assert.equal((await get(message)).state, 'submitted');

      await recorder.recordReceipts(CARRIER, [receipt('c-0')]);
      await recorder.recordReceipts(CARRIER, [receipt('c-0', { status: ref(STATUS.UNDELIVERABLE_NOT_DELIVERED), errorId: 6, at: T0 + 4000 })]);
      const stored = await get(message);
      assert.deepEqual(stored.status, DELIVERED);
      assert.equal(stored.doneAt, T0 + 3000);
      assert.equal((await pulled()).length, 1);
    });

    it('of two final receipts in one batch, the first wins', async () => {
      const message = newMessage(accountId);
      await submitted(message);
      await recorder.recordReceipts(CARRIER, [receipt('c-0'), receipt('c-0', { status: ref(STATUS.REJECTED_NETWORK), errorId: 345 })]);
      assert.deepEqual((await get(message)).status, DELIVERED);
      const reports = await pulled();
      assert.equal(reports.length, 1);
      assert.deepEqual(reports[0]!.status, DELIVERED);
    });

    it('writes receipts arriving in one turn together, all of them', async () => {
      const messages = Array.from({ length: 250 }, () => newMessage(accountId));
      await submitted(...messages);
      await Promise.all(messages.map((_, i) => recorder.recordReceipts(CARRIER, [receipt(`c-${i}`)])));
      for (const m of messages) assert.equal((await get(m)).state, 'final');
      assert.equal((await pulled()).length, 100);
      const counted = (await metrics.statusChanges.get()).values.find((v) => v.labels.group === 'DELIVERED');
      assert.equal(counted?.value, 250);
    });

    it('holds receipts until a submission in progress has stored its carrier ids', async () => {
      const message = newMessage(accountId);
      const [pk] = await insertAll(store(), [message]);
      await store().messages.claimDue(T0, 1, T0 + 30_000);
      let finishSubmit!: () => void;
      const submitDone = new Promise<void>((resolve) => (finishSubmit = resolve));
      recorder.holdReceiptsUntil(submitDone);

      const recorded = recorder.recordReceipts(CARRIER, [receipt('early-id')]);
      await new Promise((resolve) => setTimeout(resolve, 30));
      await store().messages.markSubmitted([{ accountId, pk: pk!, carrier: CARRIER, carrierMessageId: 'early-id', at: T0 + 1000 }]);
      finishSubmit();
      await recorded;
      assert.deepEqual((await get(message)).status, DELIVERED);
    });

    it('recordFinal ends messages with a pipeline verdict and its report', async () => {
      const message = newMessage(accountId, { webhook: { url: 'https://hooks.example.com/dlr', intermediateReport: false, notify: true } });
      const [stored] = await submitted(message);
      await recorder.recordFinal([stored!], ref(STATUS.EXPIRED_DLR_UNKNOWN), ERROR.EC_VALIDITY_EXPIRED.id);
      const done = await get(message);
      assert.equal(done.state, 'final');
      assert.deepEqual(done.status, ref(STATUS.EXPIRED_DLR_UNKNOWN));
      assert.equal(done.errorId, ERROR.EC_VALIDITY_EXPIRED.id);
      assert.equal(done.doneAt, clock.now());
      const payload = (await queued())[0]!.payload as { error: { name: string } };
      assert.equal(payload.error.name, 'EC_VALIDITY_EXPIRED');
    });
  });
}
