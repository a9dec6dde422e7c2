import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { Metrics } from '../../../src/core/metrics.js';
import { expiredFromParts, finalFromParts, intermediatesFromParts } from '../../../src/core/pipeline/part-status.js';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import { StatusRecorder } from '../../../src/core/pipeline/status-recorder.js';
import type { MessagePart, PartReceipt, StatusRef } from '../../../src/core/store/types.js';
import { SubscriptionMatcher } from '../../../src/core/subscriptions/matcher.js';
import type { CarrierReceipt } from '../../../src/network/carrier.js';
import { renderDeliveryReport } from '../../../src/sms/wire/report-shapes.js';
import { T0, cleanupStores, insertAll, newMessage, storeDrivers, storePerTest } from '../../helpers/stores.js';
import { silentLogger } from './pipeline-fixture.js';

after(cleanupStores);

const SMSC = 'smsc';
const DELIVERED = ref(STATUS.DELIVERED_TO_HANDSET);
const UNDELIVERABLE = ref(STATUS.UNDELIVERABLE_NOT_DELIVERED);
const REJECTED = ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR);
const ENROUTE = ref(STATUS.PENDING_ENROUTE);
const ACCEPTED = ref(STATUS.PENDING_ACCEPTED);
const ABSENT = ERROR.EC_ABSENT_SUBSCRIBER.id;

const part = (number: number, receipt?: { status: StatusRef; errorId?: number; final?: boolean; at?: number }): MessagePart => ({
  number,
  partId: `p${number}`,
  submittedAt: T0,
  ...(receipt ? { receipt: { status: receipt.status, errorId: receipt.errorId ?? 0, final: receipt.final ?? receipt.status.groupId >= 2, at: receipt.at ?? T0 } } : {}),
});

const changed = (partId: string, status: StatusRef, at = T0): PartReceipt => ({ partId, status, errorId: 0, final: status.groupId >= 2, at });

describe('the status of a long message from its parts', () => {
  it('waits for every part, then is delivered only if every part was', () => {
    assert.equal(finalFromParts([part(1, { status: DELIVERED }), part(2)]), undefined);
    assert.deepEqual(finalFromParts([part(1, { status: DELIVERED, at: T0 + 5 }), part(2, { status: DELIVERED, at: T0 + 9 })]), { status: DELIVERED, errorId: 0, at: T0 + 9 });
  });

  it('takes the first part in order that was not delivered, whatever order the receipts came in', () => {
    const parts = [part(1, { status: DELIVERED, at: T0 + 1 }), part(2, { status: REJECTED, at: T0 + 5 }), part(3, { status: UNDELIVERABLE, errorId: ABSENT, at: T0 + 2 })];
    assert.deepEqual(finalFromParts(parts), { status: REJECTED, errorId: 0, at: T0 + 5 });
  });

  it('at expiry counts parts without a final receipt as EXPIRED_DLR_UNKNOWN, so a known failure still shows', () => {
    const failed = [part(1, { status: DELIVERED }), part(2, { status: UNDELIVERABLE, errorId: ABSENT }), part(3)];
    assert.deepEqual(expiredFromParts(failed, T0 + 100), { status: UNDELIVERABLE, errorId: ABSENT, at: T0 + 100 });
    const unknown = [part(1, { status: DELIVERED }), part(2, { status: ENROUTE, final: false }), part(3)];
    assert.deepEqual(expiredFromParts(unknown, T0 + 100), { status: ref(STATUS.EXPIRED_DLR_UNKNOWN), errorId: ERROR.EC_VALIDITY_EXPIRED.id, at: T0 + 100 });
  });

  it('passes an intermediate state on once, and none once a part is final', () => {
    const first = [part(1, { status: ENROUTE, final: false }), part(2)];
    assert.deepEqual(intermediatesFromParts(first, [changed('p1', ENROUTE)]).map((v) => v.status), [ENROUTE]);
    const second = [part(1, { status: ENROUTE, final: false }), part(2, { status: ENROUTE, final: false })];
    assert.deepEqual(intermediatesFromParts(second, [changed('p2', ENROUTE)]), [], 'part 1 had it already');
    assert.deepEqual(intermediatesFromParts(second, [changed('p1', ENROUTE), changed('p2', ENROUTE)]).length, 1, 'both in one round: once');
    const other = [part(1, { status: ENROUTE, final: false }), part(2, { status: ACCEPTED, final: false })];
    assert.deepEqual(intermediatesFromParts(other, [changed('p2', ACCEPTED)]).map((v) => v.status), [ACCEPTED]);
    const ended = [part(1, { status: DELIVERED }), part(2, { status: ENROUTE, final: false })];
    assert.deepEqual(intermediatesFromParts(ended, [changed('p2', ENROUTE)]), []);
  });
});

for (const driver of storeDrivers()) {
  describe(`receipts of long messages matched in the store (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    let clock = new ManualClock(T0 + 5000);
    let accountId = '';

    /** A node's recorder: a new one is another node, or the same node after a restart. */
    const node = (): StatusRecorder =>
      new StatusRecorder({
        store: store(),
        clock,
        metrics: new Metrics({ defaultMetrics: false }),
        log: silentLogger(),
        subscriptions: new SubscriptionMatcher({ store: store(), clock, cacheMs: 0 }),
        renderReport: renderDeliveryReport,
        onWebhooksQueued: () => undefined,
        keptReceiptRetryMs: 0,
        keepUnmatchedMs: 60_000,
      });

    beforeEach(async () => {
      clock = new ManualClock(T0 + 5000);
      accountId = (await store().accounts.ensure('acme', T0)).id;
    });

    const receipt = (id: string, status: StatusRef, overrides: Partial<CarrierReceipt> = {}): CarrierReceipt => ({
      carrierMessageId: id,
      status,
      errorId: 0,
      final: status.groupId >= 2,
      at: clock.now(),
      ...overrides,
    });

    /** A long message claimed; `submit()` stores its submit with parts `<prefix>1..n`. */
    async function claimedLong(prefix: string, parts = 3, validUntil = T0 + 3_600_000): Promise<{ messageId: string; submit(): Promise<void> }> {
      const message = newMessage(accountId, { messageCount: parts, validUntil });
      const [pk] = await insertAll(store(), [message]);
      await store().messages.claimDue(T0, 100, T0 + 30_000);
      const partIds = Array.from({ length: parts }, (_, i) => `${prefix}${i + 1}`);
      return {
        messageId: message.messageId,
        submit: () => store().messages.markSubmitted([{ accountId, pk: pk!, carrier: SMSC, carrierMessageId: partIds.join(' '), partIds, at: T0 + 1000 }]),
      };
    }

    const stored = async (messageId: string) => (await store().messages.get(accountId, messageId))!;
    const pulled = async (): Promise<Array<{ messageId: string; status: StatusRef; errorId: number }>> =>
      (await store().reports.consume({ accountId, since: 0, limit: 100 })).map((r) => ({ messageId: r.messageId, status: r.status, errorId: r.errorId }));

    it('ends a message once all its parts are in, whichever node got each receipt and across a restart', async () => {
      const long = await claimedLong('a');
      await long.submit();
      assert.ok(await node().recordReceipts(SMSC, [receipt('a3', DELIVERED)]));
      assert.ok(await node().recordReceipts(SMSC, [receipt('a1', UNDELIVERABLE, { errorId: ABSENT })]));
      assert.equal((await stored(long.messageId)).state, 'submitted', 'part 2 is still awaited');
      assert.ok(await node().recordReceipts(SMSC, [receipt('a2', DELIVERED)]));
      const message = await stored(long.messageId);
      assert.deepEqual([message.state, message.status, message.errorId], ['final', UNDELIVERABLE, ABSENT], 'the failure of part 1, reported before the others');
      assert.deepEqual(await pulled(), [{ messageId: long.messageId, status: UNDELIVERABLE, errorId: ABSENT }]);
      await node().recordReceipts(SMSC, [receipt('a2', DELIVERED)]);
      assert.deepEqual(await pulled(), [], 'a receipt sent again reports nothing more');
    });

    it('ends a message once when two nodes record its last receipts at the same time', async () => {
      const messages = [];
      for (let i = 0; i < 10; i++) {
        const long = await claimedLong(`m${i}-`, 2);
        await long.submit();
        messages.push(long.messageId);
      }
      const [one, two] = [node(), node()];
      await Promise.all(messages.flatMap((_, i) => [one.recordReceipts(SMSC, [receipt(`m${i}-1`, DELIVERED)]), two.recordReceipts(SMSC, [receipt(`m${i}-2`, DELIVERED)])]));
      for (const messageId of messages) assert.equal((await stored(messageId)).state, 'final', messageId);
      assert.deepEqual((await pulled()).map((r) => r.messageId).sort(), [...messages].sort(), 'one report each');
    });

    it('derives the end again from the stored parts when the last receipt comes again', async () => {
      const long = await claimedLong('b', 2);
      await long.submit();
      // As a node that recorded both parts and died before the message's own write would leave it.
      await store().parts.recordReceipts(SMSC, [changed('b1', DELIVERED), changed('b2', DELIVERED)]);
      assert.equal((await stored(long.messageId)).state, 'submitted');
      await node().recordReceipts(SMSC, [receipt('b2', DELIVERED)]);
      assert.equal((await stored(long.messageId)).state, 'final');
    });

    it('keeps a receipt that comes before its submit is stored and matches it once the submit is', async () => {
      const long = await claimedLong('c', 2);
      const single = newMessage(accountId);
      const [pk] = await insertAll(store(), [single]);
      await store().messages.claimDue(T0, 100, T0 + 30_000);
      const other = node();
      assert.ok(await other.recordReceipts(SMSC, [receipt('c1', DELIVERED), receipt('c2', DELIVERED), receipt('s1', DELIVERED)]), 'acknowledged: kept in the store');
      await other.retryKeptReceipts();
      assert.equal((await stored(long.messageId)).state, 'dispatching', 'nothing to match yet');
      await long.submit();
      await store().messages.markSubmitted([{ accountId, pk: pk!, carrier: SMSC, carrierMessageId: 's1', at: T0 + 1000 }]);
      await node().retryKeptReceipts();
      assert.equal((await stored(long.messageId)).state, 'final', 'matched by any node');
      assert.equal((await stored(single.messageId)).state, 'final');
      assert.deepEqual(await store().keptReceipts.claimDue(clock.now() + 60_000, 10, clock.now() + 60_000), [], 'forgotten once matched');
    });

    it('drops a kept receipt that matched nothing for too long', async () => {
      await node().recordReceipts(SMSC, [receipt('nobody', DELIVERED)]);
      clock.advance(59_999);
      await node().retryKeptReceipts();
      assert.equal((await store().keptReceipts.claimDue(clock.now() + 10_000, 10, clock.now() + 10_000)).length, 1, 'still kept');
      clock.advance(20_000);
      await node().retryKeptReceipts();
      assert.deepEqual(await store().keptReceipts.claimDue(clock.now() + 10_000, 10, clock.now() + 10_000), []);
    });

    it('expires a long message from what its parts reported', async () => {
      const failed = await claimedLong('d', 3, T0 + 2000);
      const unknown = await claimedLong('e', 2, T0 + 2000);
      await failed.submit();
      await unknown.submit();
      const recorder = node();
      await recorder.recordReceipts(SMSC, [receipt('d1', DELIVERED), receipt('d2', REJECTED), receipt('e1', DELIVERED)]);
      await recorder.recordOverdue(await store().messages.listOverdueSubmitted(clock.now(), 10));
      const [d, e] = [await stored(failed.messageId), await stored(unknown.messageId)];
      assert.deepEqual([d.state, d.status], ['final', REJECTED]);
      assert.deepEqual([e.state, e.status, e.errorId], ['final', ref(STATUS.EXPIRED_DLR_UNKNOWN), ERROR.EC_VALIDITY_EXPIRED.id]);
    });
  });
}
