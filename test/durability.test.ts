import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from './helpers/child-server.js';
import { eventually, removeTestEnv, testEnv } from './helpers/server.js';

async function send(server: ChildServer, key: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}/sms/3/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `App ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function statuses(server: ChildServer, key: string, bulkId: string): Promise<Map<string, string>> {
  const response = await fetch(`${server.url}/sms/3/logs?bulkId=${bulkId}&limit=1000`, { headers: { authorization: `App ${key}` } });
  const body = (await response.json()) as { results: Array<{ messageId: string; status: { name: string } }> };
  return new Map(body.results.map((r) => [r.messageId, r.status.name]));
}

describe('durability across kill -9', () => {
  const envs: Array<Record<string, string>> = [];
  after(async () => {
    for (const env of envs) await removeTestEnv(env);
  });

  it('delivers every acknowledged message after the server is killed and restarted', async () => {
    // A long sandbox latency keeps receipts pending, so the kill lands between submit and receipt
    // for some messages and before dispatch for others.
    const env = await testEnv({ SWITCHBOARD_SANDBOX_LATENCY_MS: '600000' });
    envs.push(env);
    const key = env.SWITCHBOARD_API_KEY!;
    const first = await startChildServer(env);
    const bulkId = 'durable-bulk';
    const destinations = Array.from({ length: 300 }, (_, i) => ({ to: `4179${String(5_000_000 + i)}` }));
    const accepted = await Promise.all([
      send(first, key, { messages: [{ destinations: destinations.slice(0, 100), content: { text: 'one' } }], options: { schedule: { bulkId } } }),
      send(first, key, { messages: [{ destinations: destinations.slice(100, 200), content: { text: 'two' } }], options: { schedule: { bulkId } } }),
      send(first, key, { messages: [{ destinations: destinations.slice(200), content: { text: 'three' } }], options: { schedule: { bulkId } } }),
    ]);
    await first.kill9();
    const ids = accepted.flatMap((a) => {
      assert.equal(a.status, 200);
      return (a.json.messages as Array<{ messageId: string }>).map((m) => m.messageId);
    });
    assert.equal(ids.length, 300);

    const second = await startChildServer({ ...env, SWITCHBOARD_SANDBOX_LATENCY_MS: '0' });
    try {
      // Messages the killed process held claimed (most of them: acceptance hands messages due now to
      // its dispatcher already leased) are put back at start on SQLite, which one process serves; on
      // PostgreSQL they wait for their 10 s lease, or for the old run to be found silent.
      const final = await eventually(async () => {
        const current = await statuses(second, key, bulkId);
        return [...current.values()].filter((s) => s === 'DELIVERED_TO_HANDSET').length === 300 ? current : undefined;
      }, 30_000, 100);
      for (const id of ids) assert.equal(final.get(id), 'DELIVERED_TO_HANDSET', id);
    } finally {
      await second.terminate();
    }
  });

  it('keeps retrying a failed webhook after the server is killed and restarted', async () => {
    let failing = true;
    const received: unknown[] = [];
    const receiver: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        if (failing) return void response.writeHead(500).end();
        received.push(...(JSON.parse(Buffer.concat(chunks).toString()) as { results: unknown[] }).results);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const hookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/dlr`;
    const env = await testEnv({ SWITCHBOARD_WEBHOOK_RETRY_MS: '300' });
    envs.push(env);
    const key = env.SWITCHBOARD_API_KEY!;
    try {
      const first = await startChildServer(env);
      const sent = await send(first, key, {
        messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'hook' }, webhooks: { delivery: { url: hookUrl } } }],
      });
      assert.equal(sent.status, 200);
      await eventually(async () => {
        const response = await fetch(`${first.url}/switchboard/1/webhooks/attempts`, { headers: { authorization: `App ${key}` } });
        const body = (await response.json()) as { results: unknown[] };
        return body.results.length > 0 ? true : undefined;
      }, 10_000);
      await first.kill9();
      failing = false;
      const second = await startChildServer(env);
      try {
        await eventually(async () => (received.length > 0 ? true : undefined), 15_000, 50);
        assert.equal((received[0] as { messageId: string }).messageId, sent.json.messages[0].messageId);
      } finally {
        await second.terminate();
      }
    } finally {
      receiver.close();
    }
  });
});
