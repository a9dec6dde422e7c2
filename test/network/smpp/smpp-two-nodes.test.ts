import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { childApi, startChildServer, type ChildApi, type ChildServer } from '../../helpers/child-server.js';
import { eventually, removeTestEnv, testEnv, testStoreKind } from '../../helpers/server.js';
import { startSmsc } from '../../helpers/smsc.js';
import { WebhookReceiver } from '../../core/outbox/webhook-receiver.js';

/**
 * Two server processes on one PostgreSQL database, each bound to the same SMSC (the simulator),
 * which sends every receipt on the other node's bind and the parts of each inbound message over
 * both; one node is killed with SIGKILL in the middle of a run of long messages.
 */

const LONG = `${'Three parts of text for every message of this run. '.repeat(8)}End.`;
const ROUNDS = 16;
const KILL_AFTER = 8;

/** By the simulator's built-in outcomes: the destination's last four digits. */
const EXPECTED: Record<string, string> = {
  '9001': 'UNDELIVERABLE_NOT_DELIVERED',
  '9003': 'UNDELIVERABLE_REJECTED_OPERATOR',
};
const expectedStatus = (to: string): string => EXPECTED[to.slice(-4)] ?? 'DELIVERED_TO_HANDSET';

interface Report {
  messageId: string;
  status: { name: string };
  doneAt: string;
}

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('SMPP on two nodes sharing PostgreSQL', { skip: testStoreKind() !== 'postgres' && 'two processes share PostgreSQL only' }, () => {
  it('ends every long message with its right status exactly once and makes every inbound message whole once, a node killed mid-run', async () => {
    const hooks = await WebhookReceiver.start();
    cleanups.push(() => hooks.close());
    const sim = await startSmsc({ receiptsOnOtherBind: true, spreadInboundParts: true, receiptDelayMs: 150, inboundRetryMs: 2000, keepMessages: false });
    cleanups.push(() => sim.stop());
    // Webhook items claimed by the killed node come back when their lease ends (3 × timeout + 30 s).
    const env = await testEnv({ SWITCHBOARD_SMPP_URL: sim.url('binds=1'), SWITCHBOARD_WEBHOOK_TIMEOUT_MS: '1000', SWITCHBOARD_WEBHOOK_RETRY_MS: '500' });
    const one = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'smpp-one' });
    cleanups.push(() => one.terminate());
    const two: ChildServer = await startChildServer({ ...env, SWITCHBOARD_NODE_ID: 'smpp-two', DATA_DIR: `${env.DATA_DIR}-two` });
    cleanups.push(() => two.terminate());
    cleanups.push(() => removeTestEnv(env));
    const apis: ChildApi[] = [childApi(one, env.SWITCHBOARD_API_KEY!), childApi(two, env.SWITCHBOARD_API_KEY!)];
    const subscribed = await apis[0]!('POST', '/subscriptions/1/subscription/SMS', {
      subscriptionId: 'mo',
      events: ['INBOUND_MESSAGE'],
      profile: { webhook: { notifyUrl: hooks.url } },
    });
    assert.equal(subscribed.status, 201, JSON.stringify(subscribed.json));
    await eventually(async () => (sim.sim.stats().binds === 2 ? true : undefined));

    const pushed = new Map<string, string>(); // messageId → destination, with a webhook URL
    const pulled = new Map<string, string>(); // messageId → destination, left for GET /sms/3/reports
    const inbound: string[] = [];
    const injected: Array<Promise<void>> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const alive = round < KILL_AFTER ? [0, 1] : [0];
      for (const node of alive) {
        // The last request to the node about to die is larger: it is killed with most of it in flight.
        const count = round === KILL_AFTER - 1 && node === 1 ? 40 : 2;
        const to = (n: number): string => `41793${String(round).padStart(2, '0')}${node}${String(n).padStart(3, '0')}`;
        const destinations = [...Array.from({ length: count }, (_, n) => to(n)), `41793${String(round * 10 + node).padStart(2, '0')}9001`, `41793${String(round * 10 + node).padStart(2, '0')}9003`];
        const withHook = (round + node) % 2 === 0;
        const response = await apis[node]!('POST', '/sms/3/messages', {
          messages: [{ sender: 'Switchboard', destinations: destinations.map((d) => ({ to: d })), content: { text: LONG }, ...(withHook ? { webhooks: { delivery: { url: hooks.url } } } : {}) }],
        });
        assert.equal(response.status, 200);
        for (const message of response.json.messages as Array<{ messageId: string; destination: string }>) (withHook ? pushed : pulled).set(message.messageId, message.destination);
      }
      const text = `Reply ${round}: ${LONG}`;
      inbound.push(text);
      injected.push(sim.sim.injectInbound({ from: `4179400${String(round).padStart(4, '0')}`, to: '447860099299', text }));
      if (round === KILL_AFTER - 1) {
        // In flight now: claims and submits, part receipts on the other node's bind, inbound parts on both.
        await two.kill9();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await Promise.all(injected);

    const api = apis[0]!;
    const all = new Map([...pushed, ...pulled]);
    const statuses = await eventually(
      async () => {
        const found = new Map<string, string>();
        for (const ids of chunks([...all.keys()], 50)) {
          const logs = (await api('GET', `/sms/3/logs?${ids.map((id) => `messageId=${id}`).join('&')}&limit=1000`)).json.results as Array<{ messageId: string; status: { name: string; groupName: string } }>;
          for (const log of logs) if (!['PENDING', 'ACCEPTED'].includes(log.status.groupName)) found.set(log.messageId, log.status.name);
        }
        return found.size === all.size ? found : undefined;
      },
      60_000,
      500,
    );
    for (const [messageId, to] of all) assert.equal(statuses.get(messageId), expectedStatus(to), `${messageId} to ${to}`);

    const pulledReports: Report[] = [];
    await eventually(
      async () => {
        pulledReports.push(...((await api('GET', '/sms/3/reports?limit=1000')).json.results as Report[]));
        return pulledReports.length >= pulled.size ? true : undefined;
      },
      10_000,
      200,
    );
    assert.deepEqual(pulledReports.map((r) => r.messageId).sort(), [...pulled.keys()].sort(), 'each pull report exactly once');

    const reportsOf = (): Map<string, Report[]> => {
      const by = new Map<string, Report[]>();
      for (const post of hooks.posts) {
        for (const result of (post.body as { results: Array<Report & { text?: string }> }).results) {
          if (result.status === undefined) continue;
          const list = by.get(result.messageId) ?? [];
          list.push(result);
          by.set(result.messageId, list);
        }
      }
      return by;
    };
    const pushedReports = await eventually(async () => (reportsOf().size >= pushed.size ? reportsOf() : undefined), 60_000, 500);
    assert.deepEqual([...pushedReports.keys()].sort(), [...pushed.keys()].sort(), 'a webhook for every message that asked, none for the others');
    for (const [messageId, reports] of pushedReports) {
      // A POST in flight when its node died is posted again by the other: the same report, never another status.
      const distinct = new Set(reports.map((r) => `${r.status.name} ${r.doneAt}`));
      assert.equal(distinct.size, 1, `${messageId}: ${[...distinct].join(', ')}`);
      assert.equal(reports[0]!.status.name, expectedStatus(pushed.get(messageId)!), messageId);
    }

    const mo = await eventually(
      async () => {
        const byText = new Map<string, Set<string>>();
        for (const post of hooks.posts) {
          for (const result of (post.body as { results: Array<{ messageId: string; text?: string; status?: unknown }> }).results) {
            if (result.status !== undefined || result.text === undefined) continue;
            byText.set(result.text, (byText.get(result.text) ?? new Set()).add(result.messageId));
          }
        }
        return byText.size >= inbound.length ? byText : undefined;
      },
      60_000,
      500,
    );
    assert.deepEqual([...mo.keys()].sort(), [...inbound].sort(), 'every inbound message whole, and nothing else (no fragment)');
    for (const [text, ids] of mo) assert.equal(ids.size, 1, `stored once: ${text.slice(0, 12)}`);
  });
});

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
