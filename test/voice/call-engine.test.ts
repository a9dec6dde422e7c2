import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualClock } from '../../src/core/clock.js';
import type { CallRecord, MediaAction, NewCall, Store } from '../../src/core/store/types.js';
import { SandboxTelephony } from '../../src/network/telephony/sandbox-telephony.js';
import { CallEngine, MediaUnavailable, type MediaPreparer } from '../../src/voice/call-engine.js';
import { CallSteps } from '../../src/voice/call-steps.js';
import { dialStep } from '../../src/voice/machine/call-machine.js';
import { NodeWatch } from '../../src/engine/node-watch.js';
import { eventually } from '../helpers/server.js';
import { cleanupStores, storeDrivers, storePerTest, T0 } from '../helpers/stores.js';
import { newCall } from './call-fixture.js';

after(cleanupStores);

const log = pino({ level: process.env.DEBUG_LOG ? 'debug' : 'silent' });

/** Media whose preparation answers what the test says: a length, or a refusal. */
class ScriptedMedia implements MediaPreparer {
  prepared: string[] = [];
  async prepare(_accountId: string, action: MediaAction): Promise<{ audioMs: number; audioRef: string }> {
    const text = action.source.kind === 'speech' ? action.source.text : 'audio';
    this.prepared.push(text);
    if (text.startsWith('fail')) throw new MediaUnavailable('cannot be spoken');
    return { audioMs: 1000, audioRef: `ref:${text}` };
  }
}

const callOn = (accountId: string, nodeId: string, phoneNumber = '41793026727'): NewCall =>
  newCall(accountId, { nodeId, configurationId: 'conf', endpoint: { type: 'PHONE', phoneNumber }, maxDurationMs: 3_600_000 });

for (const driver of storeDrivers()) {
  describe(`CallEngine on ${driver.name}`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    let engines: Array<CallEngine | NodeWatch> = [];
    afterEach(async () => {
      for (const engine of engines) await engine.stop();
      engines = [];
    });

    async function setup(nodeId: string, clock: ManualClock, media = new ScriptedMedia()) {
      const account = await store().accounts.ensure(`acct-${randomUUID()}`, T0);
      const machine = { telephony: new SandboxTelephony(1500), mediaScale: 1 };
      let engine: CallEngine | undefined;
      const steps = new CallSteps({
        store: store(),
        clock,
        machine,
        apiBaseUrl: 'http://127.0.0.1',
        eventTargets: async () => ({ targetsFor: () => [] }),
        onScheduled: (dueAt) => engine?.nudge(dueAt),
      });
      engine = new CallEngine({ store: store(), clock, log, steps, media, pollMs: 50 });
      // As the engine composes them: the node watch ends the calls of stopped nodes through it.
      const calls = engine;
      const watch = new NodeWatch({ store: store(), clock, log, nodeId, heartbeatMs: 5_000, timeoutMs: 15_000, shared: true, takeOver: (ids, silentBefore) => calls.endCallsOf(ids, silentBefore) });
      engines.push(engine, watch);
      return { account, steps, engine, media, machine, watch };
    }

    const state = async (s: Store, call: CallRecord) => (await s.calls.get(call.accountId, call.callId))!;

    it('carries a call on at its timers\' times, in order, and prepares its media', async () => {
      const clock = new ManualClock(T0);
      const { account, steps, engine, media, machine } = await setup('node-a', clock);
      await engine.start();
      const call = await steps.create(callOn(account.id, 'node-a'), (record, now) => dialStep(record, now, machine));
      clock.advance(300);
      await engine.runDue();
      assert.equal((await state(store(), call)).state, 'RINGING');
      clock.advance(1200);
      await engine.runDue();
      assert.equal((await state(store(), call)).state, 'ESTABLISHED');

      await steps.apply(account.id, call.callId, { kind: 'say', action: { type: 'SAY', source: { kind: 'speech', text: 'fail here', language: 'en', speechRate: 1 }, loopCount: 1 } });
      await steps.apply(account.id, call.callId, { kind: 'say', action: { type: 'SAY', source: { kind: 'speech', text: 'hello', language: 'en', speechRate: 1 }, loopCount: 1 } });
      await engine.runDue();
      assert.deepEqual(media.prepared, ['fail here', 'hello']);
      const playing = await state(store(), call);
      assert.deepEqual(playing.media.queue.map((a) => [a.state, a.audioRef]), [['playing', 'ref:hello']]);
      clock.advance(1000);
      await engine.runDue();
      assert.deepEqual((await state(store(), call)).media.queue, []);
      const timeline = (await store().calls.timeline(account.id, call.callId)).map((e) => e.type);
      assert.deepEqual(timeline, ['STATE', 'STATE', 'STATE', 'MEDIA_FAILED', 'SAY']);
    });

    // Calls that ring and are never answered, so they end FAILED whenever the sweep comes.
    const RINGS_FOREVER = '41793029012';

    it('ends the live calls of a node that stopped beating, and those its own previous run left', async () => {
      const clock = new ManualClock(T0);
      const { account, steps, machine } = await setup('node-b', clock);
      await store().nodes.beat('dead-node', T0);
      const orphan = await steps.create(callOn(account.id, 'dead-node', RINGS_FOREVER), (record, now) => dialStep(record, now, machine));
      const leftOver = await steps.create(callOn(account.id, 'node-b', RINGS_FOREVER), (record, now) => dialStep(record, now, machine));
      const survivor = await steps.create(callOn(account.id, 'node-c', RINGS_FOREVER), (record, now) => dialStep(record, now, machine));
      await store().nodes.beat('node-c', T0);

      const { engine, watch } = await setup('node-b', clock);
      await watch.takeOverPreviousRun();
      await engine.start();
      await watch.start();
      const atStart = await state(store(), leftOver);
      assert.deepEqual([atStart.state, atStart.errorCode, atStart.hangupSource], ['FAILED', 10309, 'PLATFORM']);
      assert.notEqual((await state(store(), orphan)).state, 'FAILED', 'not before the node has been silent for 15 s');

      clock.advance(14_000);
      await store().nodes.beat('node-c', clock.now());
      // The next beat after 15 s of silence: 20 s from the dead node's last.
      clock.advance(6_000);
      await engine.runDue();
      const ended = await eventually(async () => {
        const current = await state(store(), orphan);
        return current.state === 'FAILED' ? current : undefined;
      });
      assert.deepEqual([ended.state, ended.errorCode, ended.hangupSource], ['FAILED', 10309, 'PLATFORM']);
      assert.notEqual((await state(store(), survivor)).state, 'FAILED', 'a node still beating keeps its calls');
      // Forgotten by the same look, once its take-over (the calls' ending just seen) has returned.
      await eventually(async () => ((await store().nodes.listSilentSince(T0 + 100_000)).includes('dead-node') ? undefined : true));
    });
  });
}
