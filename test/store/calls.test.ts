import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { CallRecord, Store } from '../../src/core/store/types.js';
import { newCall } from '../voice/call-fixture.js';
import { cleanupStores, MINUTE, storeDrivers, storePerTest, T0, twoAccounts, webhookItem } from '../helpers/stores.js';

after(cleanupStores);

const finished = (call: CallRecord, at: number): CallRecord => ({ ...call, state: 'FINISHED', endTime: at, errorCode: 10000, hangupSource: 'API', updatedAt: at });

for (const driver of storeDrivers()) {
  describe(`calls store on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);

    it('keeps calls configurations per account: create, duplicate, page, update, delete', async () => {
      const { a, b } = await twoAccounts(store());
      const configurations = store().callsConfigurations;
      assert.equal(await configurations.create({ accountId: a.id, id: 'c1', name: 'One', createdAt: T0 }), 'created');
      assert.equal(await configurations.create({ accountId: a.id, id: 'c1', name: 'Again', createdAt: T0 + 1 }), 'duplicate');
      assert.equal(await configurations.create({ accountId: a.id, id: 'c2', createdAt: T0 + 1 }), 'created');
      assert.equal(await configurations.create({ accountId: b.id, id: 'c1', createdAt: T0 }), 'created');

      assert.deepEqual(await configurations.get(a.id, 'c1'), { accountId: a.id, id: 'c1', name: 'One', createdAt: T0 });
      const firstPage = await configurations.list(a.id, 0, 1);
      assert.deepEqual([firstPage.results.map((c) => c.id), firstPage.total], [['c1'], 2]);
      assert.deepEqual((await configurations.list(a.id, 1, 1)).results.map((c) => c.id), ['c2']);
      assert.deepEqual((await configurations.update(a.id, 'c2', 'Two'))?.name, 'Two');
      assert.equal(await configurations.update(a.id, 'nope', 'x'), undefined);
      assert.deepEqual((await configurations.delete(a.id, 'c1'))?.name, 'One');
      assert.equal(await configurations.get(a.id, 'c1'), undefined);
      assert.equal((await configurations.get(b.id, 'c1'))?.id, 'c1', 'the other account keeps its own');
      assert.equal(await configurations.delete(a.id, 'c1'), undefined);
    });

    it('stores a call with its first step, reads it back whole, and scopes it to its account', async () => {
      const { a, b } = await twoAccounts(store());
      const call = newCall(a.id, { customData: { k: 'v' }, platform: { applicationId: 'app' }, externalId: 'ext' });
      const stored = await store().calls.create(call, {
        events: [webhookItem(a.id, { format: 'call-event', payload: { type: 'CALL_STARTED' } })],
        addTimers: [{ kind: 'network', dueAt: T0 + 100, data: { event: 'ringing' } }],
        timeline: [{ at: T0, type: 'STATE', data: { state: 'CALLING' } }],
        phone: [{ accountId: a.id, number: '41793026727', channel: 'VOICE', text: 'ring', receivedAt: T0 }],
      });
      assert.ok(stored.pk > 0);
      assert.deepEqual(await store().calls.get(a.id, call.callId), { ...call, pk: stored.pk });
      assert.equal(await store().calls.get(b.id, call.callId), undefined);
      const [item] = await store().outbox.listItems(a.id, 'pending', 10);
      assert.deepEqual(JSON.parse(item!.payloads), [{ type: 'CALL_STARTED' }]);
      assert.deepEqual(await store().calls.timeline(a.id, call.callId), [{ at: T0, type: 'STATE', data: { state: 'CALLING' } }]);
      assert.deepEqual(await store().calls.timeline(b.id, call.callId), []);
      assert.equal((await store().phones.list(a.id, '41793026727', 10))[0]?.text, 'ring');
      assert.equal(await store().calls.nextTimerDue(T0), T0 + 100);
      await store().calls.claimDueTimers(T0 + 100, 10, T0 + 500);
      assert.equal(await store().calls.nextTimerDue(T0 + 100), undefined, 'a claimed timer is not waited for');
      assert.equal(await store().calls.nextTimerDue(T0 + 501), T0 + 100, 'until its lease runs out');
    });

    it('applies a step atomically with its outputs, keeps the call when the step returns nothing, and rolls back when it throws', async () => {
      const { a } = await twoAccounts(store());
      const call = await store().calls.create(newCall(a.id), { addTimers: [{ kind: 'connect-timeout', dueAt: T0 + MINUTE }, { kind: 'network', dueAt: T0 + 10 }] });
      const answered = await store().calls.update(a.id, call.callId, (current) => ({
        call: { ...current, state: 'ESTABLISHED', answerTime: T0 + 5, updatedAt: T0 + 5 },
        removeTimerKinds: ['connect-timeout'],
        addTimers: [{ kind: 'max-duration', dueAt: T0 + 5 + 1000 }],
        timeline: [{ at: T0 + 5, type: 'STATE', data: { state: 'ESTABLISHED' } }],
        events: [webhookItem(a.id, { format: 'call-event', payload: { type: 'CALL_ESTABLISHED' }, dueAt: T0 + 5 })],
      }));
      assert.equal(answered?.state, 'ESTABLISHED');
      assert.equal((await store().calls.get(a.id, call.callId))?.answerTime, T0 + 5);

      const claimed = await store().calls.claimDueTimers(T0 + 2000, 10, T0 + 32_000);
      assert.deepEqual(claimed.map((t) => [t.kind, t.callId, t.accountId, t.callPk]), [
        ['network', call.callId, a.id, call.pk],
        ['max-duration', call.callId, a.id, call.pk],
      ]);

      const unchanged = await store().calls.update(a.id, call.callId, () => undefined);
      assert.equal(unchanged?.state, 'ESTABLISHED');
      await assert.rejects(
        store().calls.update(a.id, call.callId, (current) => {
          if (current.state === 'ESTABLISHED') throw new Error('illegal here');
          return { call: current };
        }),
        /illegal here/,
      );
      assert.equal(await store().calls.update(a.id, 'no-such-call', () => assert.fail('no step without a call')), undefined);

      await store().calls.update(a.id, call.callId, (current) => ({ call: finished(current, T0 + 3000), removeAllTimers: true }));
      assert.equal(await store().calls.nextTimerDue(T0), undefined);
      assert.deepEqual((await store().calls.timeline(a.id, call.callId)).map((e) => e.data.state), ['ESTABLISHED']);
      assert.equal((await store().outbox.listItems(a.id, 'pending', 10)).length, 1);
    });

    it('claims due timers once across concurrent claimers, until their lease runs out; a step removes them by id', async () => {
      const { a } = await twoAccounts(store());
      const call = await store().calls.create(newCall(a.id), {
        addTimers: Array.from({ length: 20 }, (_, i) => ({ kind: 'network', dueAt: T0 + i, data: { n: i } })),
      });
      const [first, second] = await Promise.all([
        store().calls.claimDueTimers(T0 + 100, 15, T0 + 1000),
        store().calls.claimDueTimers(T0 + 100, 15, T0 + 1000),
      ]);
      const ids = [...first!, ...second!].map((t) => t.id);
      assert.equal(ids.length, 20);
      assert.equal(new Set(ids).size, 20, 'no timer claimed twice');
      assert.deepEqual(await store().calls.claimDueTimers(T0 + 500, 50, T0 + 1500), [], 'leased timers are not claimed again');
      const again = await store().calls.claimDueTimers(T0 + 1001, 50, T0 + 2000);
      assert.equal(again.length, 20, 'a lapsed lease makes them claimable (their node died)');
      assert.deepEqual(again[0]!.data, { n: 0 });

      await store().calls.update(a.id, call.callId, (current) => ({ call: current, removeTimerIds: again.slice(0, 19).map((t) => t.id) }));
      assert.deepEqual((await store().calls.claimDueTimers(T0 + 3000, 50, T0 + 4000)).map((t) => t.data), [{ n: 19 }]);
      assert.deepEqual(await store().calls.claimDueTimers(T0 - 1, 50, T0 + 4000), [], 'nothing is due before its time');
    });

    it('lists live calls or the history with filters, newest first, paged with a total', async () => {
      const { a, b } = await twoAccounts(store());
      const calls: CallRecord[] = [];
      for (let i = 0; i < 5; i++) {
        calls.push(
          await store().calls.create(
            newCall(a.id, {
              startTime: T0 + i,
              direction: i % 2 ? 'INBOUND' : 'OUTBOUND',
              to: `4179${i}`,
              configurationId: i < 3 ? 'conf-1' : 'conf-2',
              platform: i === 4 ? { applicationId: 'app-4' } : undefined,
              endpoint: i === 3 ? { type: 'SIP', username: 'u', sipTrunkId: 't' } : { type: 'PHONE', phoneNumber: `4179${i}` },
            }),
            {},
          ),
        );
      }
      await store().calls.create(newCall(b.id), {});
      await store().calls.update(a.id, calls[0]!.callId, (c) => ({ call: finished(c, T0 + 50) }));
      const base = { accountId: a.id, live: true, since: T0, page: 0, size: 20 } as const;
      const ids = async (filter: Partial<Parameters<Store['calls']['list']>[0]>) =>
        (await store().calls.list({ ...base, ...filter })).results.map((c) => calls.findIndex((x) => x.callId === c.callId));
      assert.deepEqual(await ids({}), [4, 3, 2, 1]);
      assert.deepEqual(await ids({ live: false }), [0]);
      assert.deepEqual(await ids({ direction: 'INBOUND' }), [3, 1]);
      assert.deepEqual(await ids({ configurationId: 'conf-2' }), [4, 3]);
      assert.deepEqual(await ids({ type: 'SIP' }), [3]);
      assert.deepEqual(await ids({ to: '41792' }), [2]);
      assert.deepEqual(await ids({ applicationId: 'app-4' }), [4]);
      assert.deepEqual(await ids({ state: 'CALLING', startTimeAfter: T0 + 3 }), [4, 3]);
      assert.deepEqual(await ids({ since: T0 + 2 }), [4, 3, 2]);
      const page = await store().calls.list({ ...base, page: 1, size: 3 });
      assert.deepEqual([page.results.length, page.total], [1, 4]);
    });

    it('finds the live calls of silent nodes, and purges ended calls with their timers and timelines', async () => {
      const { a } = await twoAccounts(store());
      const onA = await store().calls.create(newCall(a.id, { nodeId: 'node-a' }), { timeline: [{ at: T0, type: 'STATE', data: {} }] });
      const onB = await store().calls.create(newCall(a.id, { nodeId: 'node-b' }), {});
      const ended = await store().calls.create(newCall(a.id, { nodeId: 'node-a' }), {});
      await store().calls.update(a.id, ended.callId, (c) => ({ call: finished(c, T0 + 10) }));
      assert.deepEqual((await store().calls.listLiveOnNodes(['node-a'], 10, T0)).map((c) => c.callId), [onA.callId]);
      assert.deepEqual((await store().calls.listLiveOnNodes(['node-a', 'node-b'], 1, T0)).length, 1);
      // A node that beat again since it was found silent came back: its calls are its own.
      await store().nodes.beat('node-b', T0 + 5);
      assert.deepEqual((await store().calls.listLiveOnNodes(['node-b'], 10, T0)).length, 0);
      assert.deepEqual((await store().calls.listLiveOnNodes(['node-b'], 10, T0 + 6)).map((c) => c.callId), [onB.callId]);

      await store().calls.update(a.id, onA.callId, (c) => ({ call: finished(c, T0 + 20), addTimers: [{ kind: 'x', dueAt: T0 }] }));
      assert.equal(await store().calls.purgeBefore(T0 + 15), 1);
      assert.equal(await store().calls.get(a.id, ended.callId), undefined);
      assert.equal(await store().calls.purgeBefore(T0 + 25), 1);
      assert.deepEqual(await store().calls.timeline(a.id, onA.callId), []);
      assert.deepEqual(await store().calls.claimDueTimers(T0 + 100, 10, T0 + 200), [], 'timers go with their call');
      assert.ok(await store().calls.get(a.id, onB.callId), 'live calls are kept');
    });

    it('keeps audio per account with its bytes, pages it by origin, and purges what expired', async () => {
      const { a, b } = await twoAccounts(store());
      const bytes = new Uint8Array([82, 73, 70, 70, 0, 1, 2, 255]);
      const upload = { accountId: a.id, id: 'f1', origin: 'upload' as const, name: 'hello.wav', format: 'WAV' as const, size: 8, durationMs: 1500, createdAt: T0, expiresAt: T0 + MINUTE };
      await store().audio.put(upload, bytes);
      await store().audio.put({ ...upload, name: 'kept as it was' }, new Uint8Array([1]));
      await store().audio.put({ ...upload, id: 'u1', origin: 'url', name: 'http://x/a.mp3', format: 'MP3', createdAt: T0 + 1 }, bytes);
      const got = await store().audio.get(a.id, 'f1');
      assert.deepEqual(got?.audio, upload);
      assert.deepEqual([...got!.bytes], [...bytes]);
      assert.equal(await store().audio.get(b.id, 'f1'), undefined);
      assert.deepEqual(await store().audio.describe(a.id, 'f1'), upload);
      const uploads = await store().audio.list(a.id, 'upload', 0, 10);
      assert.deepEqual([uploads.results.map((x) => x.id), uploads.total], [['f1'], 1]);
      assert.deepEqual((await store().audio.delete(a.id, 'u1'))?.origin, 'url');
      assert.equal(await store().audio.purgeExpired(T0 + MINUTE + 1), 1);
      assert.equal(await store().audio.describe(a.id, 'f1'), undefined);
    });

    it('tells which nodes fell silent, and forgets them', async () => {
      await store().nodes.beat('node-a', T0);
      await store().nodes.beat('node-b', T0);
      await store().nodes.beat('node-a', T0 + 20_000);
      assert.deepEqual(await store().nodes.listSilentSince(T0 + 10_000), ['node-b']);
      await store().nodes.forget(['node-b']);
      assert.deepEqual(await store().nodes.listSilentSince(T0 + 30_000), ['node-a']);
    });
  });
}
