import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { Metrics } from '../../../src/core/metrics.js';
import { STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import { StatusRecorder } from '../../../src/core/pipeline/status-recorder.js';
import { openSqliteStore } from '../../../src/core/store/sqlite/sqlite-store.js';
import type { NewMessage, Store, StoredMessage, SubmitResult } from '../../../src/core/store/types.js';
import { SubscriptionMatcher } from '../../../src/core/subscriptions/matcher.js';
import type { CarrierReceipt } from '../../../src/network/carrier.js';
import { renderDeliveryReport } from '../../../src/sms/wire/report-shapes.js';
import { refuseInserts } from '../../helpers/store-faults.js';
import { T0, cleanupStores, closeStore, insertAll, newMessage, storeDrivers, storePerTest, tempSqlitePath } from '../../helpers/stores.js';
import { eventually, silentLogger } from './pipeline-fixture.js';

after(cleanupStores);

const CARRIER = 'smsc';
const DELAY_MS = 500;
const NODE = 'node-a';

const delivered = (carrierMessageId: string, at: number): CarrierReceipt => ({
  carrierMessageId,
  status: ref(STATUS.DELIVERED_TO_HANDSET),
  errorId: 0,
  final: true,
  at,
});

function recorderOn(store: Store, clock: ManualClock, options: { retryDelaysMs?: number[] } = {}): StatusRecorder {
  return new StatusRecorder({
    store,
    clock,
    metrics: new Metrics({ defaultMetrics: false }),
    log: silentLogger(),
    subscriptions: new SubscriptionMatcher({ store, clock, cacheMs: 0 }),
    renderReport: renderDeliveryReport,
    onWebhooksQueued: () => {},
    submitWriteBehind: { delayMs: DELAY_MS, carriers: (carrier) => carrier === CARRIER, nodeId: NODE },
    ...options,
  });
}

/** What the dispatcher does after an SMSC took the messages: claim, hold the submits, remember them. */
async function submitHeld(store: Store, clock: ManualClock, recorder: StatusRecorder, messages: NewMessage[]): Promise<StoredMessage[]> {
  await insertAll(store, messages);
  const claimed = await store.messages.claimDue(clock.now(), messages.length, clock.now() + 10_000, NODE);
  assert.equal(claimed.length, messages.length);
  const results: SubmitResult[] = claimed.map((m, i) => ({ accountId: m.accountId, pk: m.pk, carrier: CARRIER, carrierMessageId: `c-${i}`, at: clock.now() }));
  assert.deepEqual(recorder.holdSubmits('sandbox', results), results, "the sandbox's submits are written at once");
  const longMessage = { ...results[0]!, partIds: ['p-1', 'p-2'] };
  assert.deepEqual(recorder.holdSubmits(CARRIER, [longMessage]), [longMessage], 'a long message is written at once, with its parts');
  assert.deepEqual(recorder.holdSubmits(CARRIER, results), [], 'single-part submits to an SMSC are all held');
  recorder.remember(
    CARRIER,
    claimed.map((m, i) => Object.assign(m, { state: 'submitted', carrier: CARRIER, carrierMessageId: `c-${i}`, sentAt: results[i]!.at })),
  );
  return claimed;
}

for (const driver of storeDrivers()) {
  describe(`submits written behind (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    let clock: ManualClock;
    let accountId = '';
    let recorder: StatusRecorder;

    beforeEach(async () => {
      clock = new ManualClock(T0 + 1000);
      accountId = (await store().accounts.ensure('acme', T0)).id;
      recorder = recorderOn(store(), clock);
    });

    const get = async (m: NewMessage) => (await store().messages.get(accountId, m.messageId))!;

    it('stores a submit with its final status when the receipt comes within the delay', async () => {
      const message = newMessage(accountId);
      const submittedAt = clock.now();
      await submitHeld(store(), clock, recorder, [message]);
      const before = await get(message);
      assert.equal(before.state, 'dispatching');
      assert.equal(before.carrierMessageId, undefined, 'the submit is not written on its own');

      await clock.advanceAsync(DELAY_MS - 100);
      assert.equal(await recorder.recordReceipts(CARRIER, [delivered('c-0', clock.now())]), true);
      const stored = await get(message);
      assert.equal(stored.state, 'final');
      assert.equal(stored.status.groupId, STATUS.DELIVERED_TO_HANDSET.groupId);
      assert.equal(stored.carrier, CARRIER);
      assert.equal(stored.carrierMessageId, 'c-0');
      assert.equal(stored.sentAt, submittedAt);
      assert.equal(stored.leaseUntil, undefined);

      await clock.advanceAsync(DELAY_MS * 2);
      await recorder.writeHeldSubmits();
      const later = await get(message);
      assert.equal(later.state, 'final', 'nothing held is written after it');
      assert.equal(later.status.groupId, STATUS.DELIVERED_TO_HANDSET.groupId);
    });

    it('writes a submit on its own once the delay passes without its receipt, which then matches on any node', async () => {
      const message = newMessage(accountId);
      await submitHeld(store(), clock, recorder, [message]);
      await clock.advanceAsync(DELAY_MS - 1);
      assert.equal((await get(message)).state, 'dispatching');

      await clock.advanceAsync(1);
      const submitted = await eventually(async () => {
        const stored = await get(message);
        return stored.state === 'submitted' ? stored : undefined;
      });
      assert.equal(submitted.carrierMessageId, 'c-0');
      assert.equal(submitted.carrier, CARRIER);
      assert.equal(submitted.leaseUntil, undefined);

      const otherNode = recorderOn(store(), clock);
      assert.equal(await otherNode.recordReceipts(CARRIER, [delivered('c-0', clock.now())]), true);
      assert.equal((await get(message)).state, 'final');
    });

    it('keeps a receipt that reaches another node before the submit is written, and matches it once written', async () => {
      const message = newMessage(accountId);
      await submitHeld(store(), clock, recorder, [message]);
      const otherNode = recorderOn(store(), clock);
      assert.equal(await otherNode.recordReceipts(CARRIER, [delivered('c-0', clock.now())]), true);
      assert.equal((await get(message)).state, 'dispatching');

      await clock.advanceAsync(DELAY_MS);
      await eventually(async () => ((await get(message)).state === 'submitted' ? true : undefined));
      await otherNode.retryKeptReceipts();
      const stored = await get(message);
      assert.equal(stored.state, 'final');
      assert.equal(stored.status.groupId, STATUS.DELIVERED_TO_HANDSET.groupId);
    });

    it('writes every held submit at stop', async () => {
      const messages = [newMessage(accountId), newMessage(accountId), newMessage(accountId)];
      await submitHeld(store(), clock, recorder, messages);
      await recorder.writeHeldSubmits();
      const stored = await Promise.all(messages.map(get));
      assert.deepEqual(
        stored.map((m) => [m.state, m.carrierMessageId]),
        [
          ['submitted', 'c-0'],
          ['submitted', 'c-1'],
          ['submitted', 'c-2'],
        ],
      );
    });
  });
}

describe('submits written behind: a final status that cannot be stored', () => {
  it('leaves its submit to be written on its own, so a receipt sent again still matches', async () => {
    const path = tempSqlitePath();
    const store = openSqliteStore(path);
    await store.migrate();
    try {
      const clock = new ManualClock(T0 + 1000);
      const accountId = (await store.accounts.ensure('acme', T0)).id;
      const url = 'https://refused.example.com/dlr';
      await refuseInserts({ DATABASE_URL: path }, 'outbox', 'url', url);
      const recorder = recorderOn(store, clock, { retryDelaysMs: [] });
      const message = newMessage(accountId, { webhook: { url, intermediateReport: false, notify: true } });
      await submitHeld(store, clock, recorder, [message]);

      assert.equal(await recorder.recordReceipts(CARRIER, [delivered('c-0', clock.now())]), false);
      assert.equal((await store.messages.get(accountId, message.messageId))!.state, 'dispatching');

      await clock.advanceAsync(DELAY_MS);
      const submitted = await eventually(async () => {
        const stored = await store.messages.get(accountId, message.messageId);
        return stored?.state === 'submitted' ? stored : undefined;
      });
      assert.equal(submitted.carrierMessageId, 'c-0');
    } finally {
      await closeStore(store);
    }
  });
});
