import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { Metrics } from '../../src/core/metrics.js';
import { WebhookSender } from '../../src/core/outbox/webhook-sender.js';
import { DEFAULT_LEASE_MS } from '../../src/core/pipeline/dispatcher.js';
import { STATUS, ref } from '../../src/core/pipeline/statuses.js';
import { NodeWatch } from '../../src/engine/node-watch.js';
import { T0, cleanupStores, insertAll, newMessage, storeDrivers, storePerTest, webhookItem } from '../helpers/stores.js';
import { WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { PipelinePerTest, eventually, finalMessage, settle, silentLogger, statusOf } from '../core/pipeline/pipeline-fixture.js';

after(cleanupStores);

const HEARTBEAT = 5_000;
const TIMEOUT = 15_000;
const LATENCY = 1_500;

for (const driver of storeDrivers()) {
  describe(`node watch (${driver.name})`, { skip: driver.skip }, () => {
    const store = storePerTest(driver);
    const suite = new PipelinePerTest(store);

    it('takes over what a node that stopped beating held: claims, awaited receipts and webhook items, within timeout + heartbeat', async (t) => {
      t.after(suite.stop);
      const clock = new ManualClock(T0);
      const receiver = await WebhookReceiver.start();
      t.after(() => receiver.close());
      const p = await suite.start(clock, { latencyMs: LATENCY, dispatcher: { nodeId: 'survivor', pollMs: 10 } });
      const account = suite.accountId;

      // What the dead node held when it died: a message its acceptance handed to its dispatcher, one
      // it submitted to its sandbox (whose receipt lived in its memory), and a webhook POST under way.
      await store().nodes.beat('dead', T0);
      const handed = newMessage(account, { state: 'dispatching', leaseUntil: T0 + 60 * DEFAULT_LEASE_MS, nodeId: 'dead' });
      const submitted = newMessage(account);
      const [, submittedPk] = await insertAll(store(), [handed, submitted]);
      await store().messages.claimDue(T0, 1, T0 + 60 * DEFAULT_LEASE_MS, 'dead');
      await store().messages.markSubmitted([{ accountId: account, pk: submittedPk!, carrier: 'sandbox', carrierMessageId: 'dead-1', at: T0 }], 'dead');
      await store().outbox.enqueue([webhookItem(account, { url: receiver.url, payload: { messageId: 'from-the-dead-node' } })]);
      assert.equal((await store().outbox.claimDue(T0, 10, T0 + 3_600_000, 'dead')).length, 1);
      // A node still beating keeps its own.
      await store().nodes.beat('alive', T0);
      const alive = newMessage(account, { state: 'dispatching', leaseUntil: T0 + 60 * DEFAULT_LEASE_MS, nodeId: 'alive' });
      await insertAll(store(), [alive]);

      const metrics = new Metrics({ defaultMetrics: false });
      const sender = new WebhookSender({ store: store(), clock, metrics, log: silentLogger(), retryMs: 1000, maxAttempts: 3, timeoutMs: 2000, pollMs: 10, nodeId: 'survivor' });
      sender.start();
      t.after(() => sender.stop());
      const watch = new NodeWatch({
        store: store(),
        clock,
        log: silentLogger(),
        nodeId: 'survivor',
        heartbeatMs: HEARTBEAT,
        timeoutMs: TIMEOUT,
        shared: true,
        takeOver: async (nodeIds, silentBefore) => {
          await p.dispatcher.takeOver(nodeIds, silentBefore);
          await sender.takeOver(nodeIds, silentBefore);
        },
      });
      await watch.start();
      t.after(() => watch.stop());

      // 15 s of silence is not yet death.
      await clock.advanceAsync(TIMEOUT);
      await store().nodes.beat('alive', clock.now());
      await watch.beatAndLook();
      await settle();
      assert.equal((await store().messages.get(account, handed.messageId))?.state, 'dispatching');
      assert.equal(receiver.posts.length, 0);

      // The first beat after it: 20 s after the dead node's last.
      await clock.advanceAsync(HEARTBEAT);
      await watch.beatAndLook();
      await receiver.waitForPosts(1);
      assert.deepEqual(receiver.posts[0]!.body, { results: [{ messageId: 'from-the-dead-node' }] });
      // The handed-over message is sent again at once (long before its lease ends), the submitted
      // one's receipt comes from this node's sandbox at its time.
      await eventually(async () => ((await store().messages.get(account, handed.messageId))?.state === 'submitted' ? true : undefined));
      await clock.advanceAsync(LATENCY);
      for (const message of [handed, submitted]) {
        const done = await finalMessage(store(), account, message.messageId);
        assert.deepEqual(statusOf(done), ref(STATUS.DELIVERED_TO_HANDSET), message.messageId);
      }
      assert.equal((await store().messages.get(account, alive.messageId))?.state, 'dispatching', 'a live node keeps its claims');
      assert.deepEqual(await store().nodes.listSilentSince(clock.now() + 1), ['alive', 'survivor'].sort(), 'the dead node is forgotten');
    });

    it('a node that stops marks itself silent, and is taken over at the next beat of another', async (t) => {
      const clock = new ManualClock(T0);
      const takenOver: string[][] = [];
      const watch = (nodeId: string) =>
        new NodeWatch({
          store: store(),
          clock,
          log: silentLogger(),
          nodeId,
          heartbeatMs: HEARTBEAT,
          timeoutMs: TIMEOUT,
          shared: true,
          takeOver: async (nodeIds) => void takenOver.push(nodeIds),
        });
      const leaving = watch('leaving');
      const staying = watch('staying');
      await leaving.start();
      await staying.start();
      t.after(() => staying.stop());
      await leaving.stop();
      assert.deepEqual(takenOver, []);
      await clock.advanceAsync(HEARTBEAT);
      await staying.beatAndLook();
      assert.deepEqual(takenOver, [['leaving']]);
    });

    it('on a store no other process shares, takes over every earlier run at start and writes no beats after', async () => {
      const clock = new ManualClock(T0);
      await store().nodes.beat('earlier-run', T0);
      const takenOver: string[][] = [];
      const watch = new NodeWatch({
        store: store(),
        clock,
        log: silentLogger(),
        nodeId: 'this-run',
        heartbeatMs: HEARTBEAT,
        timeoutMs: TIMEOUT,
        shared: false,
        takeOver: async (nodeIds) => void takenOver.push(nodeIds),
      });
      await watch.start();
      assert.deepEqual(takenOver, [['earlier-run']]);
      assert.equal(clock.pendingTimers, 0, 'no heartbeat');
      await watch.stop();
    });
  });
}
