import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { formatInfobipTime } from '../../../src/core/infobip-time.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { T0 } from '../../helpers/stores.js';
import { otherAccount } from '../../sms/read-fixtures.js';
import { eventually, WebhookReceiver } from './webhook-receiver.js';

/** A receiver that answers every POST 500 with a long body, to see how much of it is kept. */
const chattyFailure = (size: number) => answering(500, 'application/problem+json', 'x'.repeat(size));

/** A receiver that answers every POST with `status` and `body`. */
async function answering(status: number, type: string, body: string | Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, { 'content-type': type }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('webhook items for the console: detail, retry now, targets', () => {
  let server: TestServer;
  let flaky: WebhookReceiver;
  let healthy: WebhookReceiver;
  const clock = new ManualClock(T0);
  before(async () => {
    // One attempt per item: the first failure gives it up, so only a retry now sends it again.
    server = await startTestServer({ clock, env: { SWITCHBOARD_WEBHOOK_MAX_ATTEMPTS: '1' } });
    flaky = await WebhookReceiver.start([503, 200]);
    healthy = await WebhookReceiver.start();
  });
  after(async () => {
    await server.close();
    await flaky.close();
    await healthy.close();
  });

  const send = async (to: string, url: string): Promise<string> => {
    const response = await server.request('POST', '/sms/3/messages', {
      body: { messages: [{ sender: 'ACME', destinations: [{ to }], content: { text: 'hi' }, webhooks: { delivery: { url } } }] },
    });
    assert.equal(response.status, 200, response.text);
    return response.json().messages[0].messageId as string;
  };
  const get = async (path: string, key?: string) => server.request('GET', path, { key });
  const itemsFor = async (url: string) => (await get(`/switchboard/1/webhooks/items?url=${encodeURIComponent(url)}`)).json().results as Array<Record<string, unknown>>;

  it('shows a failed item with its body and answer, retries it now into a delivery, and keeps other accounts out', async () => {
    const messageId = await send('41793026727', flaky.url);
    await flaky.waitForPosts(1);
    const [failed] = await eventually(async () => {
      const items = await itemsFor(flaky.url);
      return items[0]?.state === 'failed' ? items : undefined;
    });
    const itemPath = `/switchboard/1/webhooks/items/${String(failed!.id)}`;

    const detail = await get(itemPath);
    assert.equal(detail.status, 200, detail.text);
    const { item, attempts } = detail.json();
    assert.equal(item.state, 'failed');
    assert.equal(item.lastError, 'HTTP 503');
    assert.equal(item.requestBody, flaky.posts[0]!.raw);
    assert.equal(JSON.parse(item.requestBody).results[0].messageId, messageId);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0].httpStatus, 503);
    assert.equal(attempts[0].outcome, 'failed');
    assert.equal(attempts[0].responseBody, 'ok');
    assert.equal(attempts[0].responseContentType, 'text/plain');

    const { key } = await otherAccount(server.ctx.store, clock.now());
    assert.equal((await get(itemPath, key)).status, 404);
    assert.equal((await server.request('POST', `${itemPath}/retry`, { key })).status, 404);
    assert.deepEqual((await get('/switchboard/1/webhooks/targets', key)).json(), { results: [] });
    assert.equal(flaky.posts.length, 1);

    clock.advance(5_000);
    const retried = await server.request('POST', `${itemPath}/retry`);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.json().state, 'pending');
    assert.equal(retried.json().dueAt, formatInfobipTime(clock.now()));
    await flaky.waitForPosts(2);
    assert.equal(flaky.posts[1]!.raw, flaky.posts[0]!.raw);
    const delivered = await eventually(async () => {
      const body = (await get(itemPath)).json();
      return body.item.state === 'delivered' ? body : undefined;
    });
    assert.deepEqual(delivered.attempts.map((a: Record<string, unknown>) => [a.attempt, a.httpStatus, a.outcome]), [
      [1, 503, 'failed'],
      [2, 200, 'delivered'],
    ]);

    const again = await server.request('POST', `${itemPath}/retry`);
    assert.equal(again.status, 400);
    assert.deepEqual(Object.keys(again.json()), ['requestError']);
    assert.equal(flaky.posts.length, 2);
  });

  it('lists failing targets first, then by their last attempt', async () => {
    const failing = await chattyFailure(10_000);
    try {
      clock.advance(1_000);
      await send('41793026728', healthy.url);
      await healthy.waitForPosts(1);
      await eventually(async () => ((await itemsFor(healthy.url))[0]?.state === 'delivered' ? true : undefined));
      clock.advance(1_000);
      await send('41793026729', failing.url);
      const [item] = await eventually(async () => {
        const items = await itemsFor(failing.url);
        return items[0]?.state === 'failed' ? items : undefined;
      });

      const targets = (await get('/switchboard/1/webhooks/targets')).json().results as Array<Record<string, unknown>>;
      assert.deepEqual(targets.map((t) => t.url), [failing.url, healthy.url, flaky.url]);
      assert.deepEqual({ ...targets[0], lastAttemptAt: 'x' }, {
        url: failing.url,
        pending: 0,
        failed: 1,
        delivered: 0,
        lastAttemptAt: 'x',
        lastOutcome: 'failed',
        lastHttpStatus: 500,
        lastError: 'HTTP 500',
      });
      const healthyTarget = targets.find((t) => t.url === healthy.url)!;
      assert.deepEqual([healthyTarget.delivered, healthyTarget.failed, healthyTarget.lastOutcome], [1, 0, 'delivered']);

      const { attempts } = (await get(`/switchboard/1/webhooks/items/${String(item!.id)}`)).json();
      assert.equal(attempts[0].responseBody, 'x'.repeat(4096));
      assert.equal(attempts[0].responseContentType, 'application/problem+json');
    } finally {
      await failing.close();
    }
  });

  it('keeps an answer with NUL bytes (a binary body) as text, and the item is delivered once', async () => {
    const binary = await answering(200, 'application/octet-stream', Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0x00]));
    try {
      clock.advance(1_000);
      await send('41793026730', binary.url);
      const [item] = await eventually(async () => {
        const items = await itemsFor(binary.url);
        return items[0]?.state === 'delivered' ? items : undefined;
      });
      const { attempts } = (await get(`/switchboard/1/webhooks/items/${String(item!.id)}`)).json();
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0].responseBody, 'ok\uFFFD\uFFFD\uFFFD');
    } finally {
      await binary.close();
    }
  });

  it('answers 404 for an item id that names nothing, and 400 for a bad url filter', async () => {
    for (const id of ['999999', 'abc', '0']) {
      const response = await get(`/switchboard/1/webhooks/items/${id}`);
      assert.equal(response.status, 404, id);
      assert.equal((await server.request('POST', `/switchboard/1/webhooks/items/${id}/retry`)).status, 404, id);
    }
    const response = await get(`/switchboard/1/webhooks/items?url=${'u'.repeat(3000)}`);
    assert.equal(response.status, 400);
  });
});
