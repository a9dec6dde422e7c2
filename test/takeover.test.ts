import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openStore } from '../src/core/store/open-store.js';
import { WebhookReceiver } from './core/outbox/webhook-receiver.js';
import { startChildServer, type ChildServer } from './helpers/child-server.js';
import { eventually, removeTestEnv, testEnv, testStoreKind } from './helpers/server.js';

/** Short take-over timings, so the test does not wait for the production ones (5 s and 15 s). */
const HEARTBEAT_MS = 500;
const TIMEOUT_MS = 2_000;
const LATENCY_MS = 1_500;
/** A loaded machine's slack on top of what the take-over itself takes. */
const SLACK_MS = 15_000;

interface Report {
  messageId: string;
  status: { name: string };
}

/** Sends batches of 10 SMS with delivery webhooks to `server` until `stop()`; collects the acknowledged ids. */
function load(server: ChildServer, key: string, webhook: string, acknowledged: Set<string>): { stop(): Promise<void> } {
  let running = true;
  let n = 0;
  const loop = async (): Promise<void> => {
    while (running) {
      const destinations = Array.from({ length: 10 }, () => ({ to: `4179${String(2_000_000 + (n++ % 900_000))}` }));
      try {
        const response = await fetch(`${server.url}/sms/3/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `App ${key}` },
          body: JSON.stringify({ messages: [{ destinations, content: { text: 'take over' }, webhooks: { delivery: { url: webhook } } }] }),
        });
        if (response.status !== 200) continue;
        for (const message of ((await response.json()) as { messages: Array<{ messageId: string }> }).messages) acknowledged.add(message.messageId);
      } catch {
        return; // the node is gone; what it did not answer was not acknowledged
      }
    }
  };
  const loops = [loop(), loop(), loop()];
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('two nodes on one PostgreSQL: one is killed under load', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'the survivor takes over within the take-over time: every acknowledged message reaches its final status and its webhook',
    { skip: testStoreKind() !== 'postgres' && 'two nodes share PostgreSQL only' },
    async () => {
      const env = await testEnv({
        LOG_LEVEL: 'warn',
        SWITCHBOARD_SANDBOX_LATENCY_MS: String(LATENCY_MS),
        SWITCHBOARD_NODE_HEARTBEAT_MS: String(HEARTBEAT_MS),
        SWITCHBOARD_NODE_TIMEOUT_MS: String(TIMEOUT_MS),
      });
      const key = env.SWITCHBOARD_API_KEY!;
      cleanups.push(() => removeTestEnv(env));
      const receiver = await WebhookReceiver.start();
      cleanups.push(() => receiver.close());
      const doomed = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'doomed' });
      cleanups.push(async () => doomed.process.exitCode === null && (await doomed.kill9()));
      const survivor = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'survivor', DATA_DIR: `${env.DATA_DIR}-two` });
      cleanups.push(() => survivor.terminate());

      const byDoomed = new Set<string>();
      const bySurvivor = new Set<string>();
      const toDoomed = load(doomed, key, receiver.url, byDoomed);
      const toSurvivor = load(survivor, key, receiver.url, bySurvivor);
      // Once the doomed node has acknowledged messages in every stage (claimed, submitted and
      // awaiting its receipt, receipted with a webhook under way), it dies without a word.
      await eventually(async () => (byDoomed.size >= 300 && receiver.posts.length > 0 ? true : undefined), 20_000);
      await doomed.kill9();
      const reportedBefore = new Set(receiver.posts.flatMap((p) => (p.body as unknown as { results: Report[] }).results.map((r) => r.messageId)));
      // Only the survivor can push these: the doomed node is gone.
      const pendingAtKill = [...byDoomed].filter((id) => !reportedBefore.has(id));
      await toDoomed.stop();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await toSurvivor.stop();

      const reported = new Map<string, string>();
      const collect = (): void => {
        for (const post of receiver.posts) {
          for (const report of (post.body as unknown as { results: Report[] }).results) reported.set(report.messageId, report.status.name);
        }
      };
      const acknowledged = [...byDoomed, ...bySurvivor];
      // Take-over: within heartbeat + timeout of the doomed node's last beat; then its receipts come
      // at their time (the sandbox's latency) and the webhooks are posted.
      await eventually(
        async () => {
          collect();
          return acknowledged.every((id) => reported.has(id)) ? true : undefined;
        },
        TIMEOUT_MS + HEARTBEAT_MS + LATENCY_MS + SLACK_MS,
        50,
      );

      for (const id of acknowledged) assert.equal(reported.get(id), 'DELIVERED_TO_HANDSET', id);
      assert.ok(pendingAtKill.length > 0, 'the doomed node died with work in flight');
      const output = survivor.output();
      const takeOver = output.split('\n').find((line) => line.includes('took over the messages of stopped nodes'));
      assert.ok(takeOver, `the survivor took over: ${output.slice(-2000)}`);
      const took = JSON.parse(takeOver!) as { nodes: string[]; released: number; adopted: number };
      assert.deepEqual(took.nodes, ['doomed']);
      assert.ok(took.adopted > 0, 'it awaited the receipts the doomed node was awaiting, and its sandbox sent them');

      const store = await openStore({ url: env.DATABASE_URL!, dataDir: env.DATA_DIR!, schema: env.DATABASE_SCHEMA });
      cleanups.push(() => store.close());
      // Nor one stored by a request the kill cut short, unacknowledged (it goes all the same).
      await eventually(async () => ((await store.messages.nextDueAt()) === undefined ? true : undefined), LATENCY_MS + SLACK_MS);
    },
  );
});
