import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Store, SubmitResult } from '../../src/core/store/types.js';
import { cleanupStores, deliveredChange, HOUR, insertAll, MINUTE, newMessage, storeDrivers, storePerTest, T0, twoAccounts, webhookItem } from '../helpers/stores.js';

after(cleanupStores);

const LEASE = 10_000;
/** Silent since before this: the nodes that beat at T0 and not since. */
const SILENT_BEFORE = T0 + MINUTE;

/** Claims every due message for `nodeId` and marks them submitted to `carrier` by it; returns their pks. */
async function submittedBy(store: Store, accountId: string, nodeId: string, count: number, carrier = 'sandbox'): Promise<number[]> {
  await insertAll(store, Array.from({ length: count }, () => newMessage(accountId)));
  const claimed = await store.messages.claimDue(T0, count, T0 + LEASE, nodeId);
  const results: SubmitResult[] = claimed.map((m) => ({ accountId, pk: m.pk, carrier, carrierMessageId: `c-${m.pk}`, at: T0 }));
  await store.messages.markSubmitted(results, nodeId);
  return claimed.map((m) => m.pk).sort((x, y) => x - y);
}

for (const driver of storeDrivers()) {
  describe(`take-over of stopped nodes (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('puts back the claims of stopped nodes, claimed or handed over at acceptance, and keeps those of live ones', async () => {
      const { a } = await twoAccounts(store());
      await store().nodes.beat('dead', T0);
      await store().nodes.beat('live', SILENT_BEFORE);
      const handed = newMessage(a.id, { state: 'dispatching', leaseUntil: T0 + LEASE, nodeId: 'dead' });
      const [handedPk] = await insertAll(store(), [handed]);
      const liveClaim = newMessage(a.id);
      const [claimedPk] = await insertAll(store(), [newMessage(a.id), liveClaim]);
      assert.equal((await store().messages.claimDue(T0, 1, T0 + LEASE, 'dead')).length, 1);
      assert.equal((await store().messages.claimDue(T0, 1, T0 + LEASE, 'live')).length, 1);

      assert.equal(await store().messages.releaseClaims(['dead', 'live'], SILENT_BEFORE), 2);

      // Back in the queue as they were due, long before their leases end, for any claimer.
      const again = await store().messages.claimDue(T0 + 1, 10, T0 + 1 + LEASE, 'survivor');
      assert.deepEqual(again.map((m) => m.pk).sort((x, y) => x - y), [handedPk, claimedPk]);
      assert.deepEqual(again.map((m) => m.attempts), [2, 2], 'the take-over counts as another attempt');
      assert.equal((await store().messages.get(a.id, liveClaim.messageId))?.state, 'dispatching', 'a node that beat since keeps its claims');
    });

    it('hands the submitted messages of stopped nodes to one adopter, page by page, per carrier', async () => {
      const { a } = await twoAccounts(store());
      await store().nodes.beat('dead', T0);
      const dead = await submittedBy(store(), a.id, 'dead', 5);
      const otherCarrier = await submittedBy(store(), a.id, 'dead', 1, 'smsc-a');
      await store().nodes.beat('live', SILENT_BEFORE);
      await submittedBy(store(), a.id, 'live', 2);

      const first = await store().messages.adoptSubmitted('sandbox', ['dead'], SILENT_BEFORE, 'survivor', 3);
      assert.deepEqual(first.map((m) => m.pk), dead.slice(0, 3));
      assert.deepEqual(first.map((m) => [m.state, m.carrierMessageId]), dead.slice(0, 3).map((pk) => ['submitted', `c-${pk}`]));
      const rest = await store().messages.adoptSubmitted('sandbox', ['dead'], SILENT_BEFORE, 'survivor', 3, first[2]!.pk);
      assert.deepEqual(rest.map((m) => m.pk), dead.slice(3));
      // Adopted once: the survivor holds them now, and a second adopter finds nothing.
      assert.deepEqual(await store().messages.adoptSubmitted('sandbox', ['dead'], SILENT_BEFORE, 'another', 10), []);
      const viaSurvivor = await store().messages.adoptSubmitted('sandbox', ['survivor'], Number.MAX_SAFE_INTEGER, 'another', 10);
      assert.deepEqual(viaSurvivor.map((m) => m.pk), dead);
      assert.deepEqual((await store().messages.adoptSubmitted('smsc-a', ['dead'], SILENT_BEFORE, 'survivor', 10)).map((m) => m.pk), otherCarrier);
      assert.deepEqual(await store().messages.adoptSubmitted('sandbox', ['live'], SILENT_BEFORE, 'survivor', 10), [], 'a live node keeps its own');
    });

    it('gives each submitted message of a stopped node to exactly one of several concurrent adopters', async () => {
      const { a } = await twoAccounts(store());
      await store().nodes.beat('dead', T0);
      const dead = await submittedBy(store(), a.id, 'dead', 40);
      const adopted = await Promise.all(
        ['s1', 's2', 's3'].map((node) => store().messages.adoptSubmitted('sandbox', ['dead'], SILENT_BEFORE, node, 100)),
      );
      const pks = adopted.flat().map((m) => m.pk).sort((x, y) => x - y);
      assert.deepEqual(pks, dead);
    });

    it('a final status forgets the node that held the message', async () => {
      const { a } = await twoAccounts(store());
      const message = newMessage(a.id);
      const [pk] = await insertAll(store(), [message]);
      await store().messages.claimDue(T0, 1, T0 + LEASE, 'dead');
      await store().messages.markSubmitted([{ accountId: a.id, pk: pk!, carrier: 'sandbox', carrierMessageId: 'c-1', at: T0 }], 'dead');
      await store().messages.applyStatusChanges([deliveredChange(message, pk!, T0 + 1)]);
      await store().nodes.beat('dead', T0);
      assert.equal(await store().messages.releaseClaims(['dead'], SILENT_BEFORE), 0);
      assert.deepEqual(await store().messages.adoptSubmitted('sandbox', ['dead'], SILENT_BEFORE, 'survivor', 10), []);
    });

    it('nextDueAt is the earliest due queued message, lapsing claim or ending validity', async () => {
      const { a } = await twoAccounts(store());
      assert.equal(await store().messages.nextDueAt(), undefined);
      await insertAll(store(), [newMessage(a.id, { dueAt: T0 + HOUR })]);
      assert.equal(await store().messages.nextDueAt(), T0 + HOUR);
      await insertAll(store(), [newMessage(a.id, { state: 'dispatching', leaseUntil: T0 + 30 * MINUTE, nodeId: 'n' })]);
      assert.equal(await store().messages.nextDueAt(), T0 + 30 * MINUTE);
      await insertAll(store(), [newMessage(a.id, { dueAt: T0, validUntil: T0 + 10 * MINUTE })]);
      const [claimed] = await store().messages.claimDue(T0, 1, T0 + LEASE, 'n');
      await store().messages.markSubmitted([{ accountId: a.id, pk: claimed!.pk, carrier: 'sandbox', carrierMessageId: 'c', at: T0 }], 'n');
      assert.equal(await store().messages.nextDueAt(), T0 + 10 * MINUTE);
    });

    it('frees the webhook items leased by stopped nodes, and nextDueAt passes over leased items', async () => {
      const { a } = await twoAccounts(store());
      await store().nodes.beat('dead', T0);
      await store().nodes.beat('live', SILENT_BEFORE);
      await store().outbox.enqueue([webhookItem(a.id, { url: 'https://a.example/1' }), webhookItem(a.id, { url: 'https://a.example/2' })]);
      assert.equal((await store().outbox.claimDue(T0, 1, T0 + HOUR, 'dead')).length, 1);
      assert.equal((await store().outbox.claimDue(T0, 1, T0 + HOUR, 'live')).length, 1);
      await store().outbox.enqueue([webhookItem(a.id, { dueAt: T0 + MINUTE })]);
      assert.equal(await store().outbox.nextDueAt(), T0 + MINUTE, 'leased items are not due');

      assert.equal(await store().outbox.releaseLeases(['dead', 'live'], SILENT_BEFORE), 1);
      assert.equal(await store().outbox.nextDueAt(), T0);
      const again = await store().outbox.claimDue(T0 + 1, 10, T0 + HOUR, 'survivor');
      assert.deepEqual(again.map((item) => item.url), ['https://a.example/1']);
      assert.equal(await store().outbox.releaseLeases(['dead'], SILENT_BEFORE), 0, 'only leases still held');
    });

    it('forgets stopped nodes unless they beat again, and a node that leaves is silent at once', async () => {
      await store().nodes.beat('back', T0);
      await store().nodes.beat('gone', T0);
      await store().nodes.beat('back', SILENT_BEFORE + 1);
      await store().nodes.forget(['back', 'gone'], SILENT_BEFORE);
      assert.deepEqual(await store().nodes.listSilentSince(Number.MAX_SAFE_INTEGER), ['back']);
      await store().nodes.leave('back');
      assert.deepEqual(await store().nodes.listSilentSince(T0), ['back']);
    });
  });
}
