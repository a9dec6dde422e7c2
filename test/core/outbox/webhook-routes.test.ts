import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/core/clock.js';
import { formatInfobipTime } from '../../../src/core/infobip-time.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { T0 } from '../../helpers/stores.js';
import { defaultAccountId, otherAccount } from '../../sms/read-fixtures.js';
import { eventually, WebhookReceiver } from './webhook-receiver.js';

const RETRY_MS = 1000;

describe('webhook attempts and items API', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  const clock = new ManualClock(T0);
  before(async () => {
    server = await startTestServer({ clock, env: { SWITCHBOARD_WEBHOOK_RETRY_MS: String(RETRY_MS) } });
    receiver = await WebhookReceiver.start([500, 200]);
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const attempts = async (query = '', key?: string) => {
    const response = await server.request('GET', `/switchboard/1/webhooks/attempts${query}`, { key });
    assert.equal(response.status, 200, response.text);
    return response.json().results as Array<Record<string, unknown>>;
  };
  const items = async (query = '', key?: string) => {
    const response = await server.request('GET', `/switchboard/1/webhooks/items${query}`, { key });
    assert.equal(response.status, 200, response.text);
    return response.json().results as Array<Record<string, unknown>>;
  };

  it('lists every attempt newest first and every item with its state', async () => {
    const accountId = await defaultAccountId(server);
    // Enqueued apart, so they are two items that travel in one POST; due a moment from now, so the
    // sender cannot take the first before the second is stored.
    const due = clock.now() + 1000;
    for (const messageId of ['m1', 'm2']) {
      await server.ctx.store.outbox.enqueue([{
        accountId,
        url: receiver.url,
        format: 'sms-dlr',
        payload: { messageId },
        security: { type: 'BASIC' as const, username: 'u', password: 'never-shown' },
        createdAt: clock.now(),
        dueAt: due,
      }]);
    }
    clock.set(due);
    server.ctx.engine.nudgeWebhooks();
    await receiver.waitForPosts(1);
    const [failed] = await eventually(async () => {
      const list = await attempts();
      return list.length === 1 ? list : undefined;
    });
    assert.equal(typeof failed!.id, 'string');
    assert.equal(typeof failed!.durationMs, 'number');
    assert.deepEqual({ ...failed, id: 'x', durationMs: 0 }, {
      id: 'x',
      url: receiver.url,
      itemCount: 2,
      attempt: 1,
      startedAt: formatInfobipTime(due),
      durationMs: 0,
      httpStatus: 500,
      outcome: 'retry',
    });
    const pending = await items('?state=pending');
    assert.equal(pending.length, 2);
    for (const item of pending) {
      assert.equal(typeof item.id, 'string');
      assert.deepEqual({ ...item, id: 'x' }, {
        id: 'x',
        url: receiver.url,
        itemCount: 1,
        format: 'sms-dlr',
        attempts: 1,
        state: 'pending',
        dueAt: formatInfobipTime(due + RETRY_MS),
        lastError: 'HTTP 500',
      });
    }

    clock.set(due + RETRY_MS);
    server.ctx.engine.nudgeWebhooks();
    await receiver.waitForPosts(2);
    const both = await eventually(async () => {
      const list = await attempts();
      return list.length === 2 ? list : undefined;
    });
    assert.deepEqual(both.map((a) => [a.attempt, a.httpStatus, a.outcome]), [[2, 200, 'delivered'], [1, 500, 'retry']]);
    assert.equal((await items('?state=delivered')).length, 2);
    assert.deepEqual(await items('?state=pending'), []);
    assert.equal((await items()).length, 2);

    const newest = await attempts('?limit=1');
    assert.deepEqual(newest.map((a) => a.attempt), [2]);
    const older = await attempts(`?limit=1&before=${String(newest[0]!.id)}`);
    assert.deepEqual(older.map((a) => a.attempt), [1]);

    const everything = JSON.stringify([await attempts(), await items()]);
    assert.doesNotMatch(everything, /never-shown/);
  });

  it("shows a stream's item with its stream", async () => {
    const accountId = await defaultAccountId(server);
    const later = clock.now() + 3_600_000;
    const event = { type: 'CALL_STARTED', callId: 'call-1' };
    await server.ctx.store.outbox.enqueue([
      { accountId, url: receiver.url, format: 'call-event', payload: event, stream: 'call-1', createdAt: clock.now(), dueAt: later },
    ]);
    const [item] = await items('?state=pending&limit=1');
    assert.deepEqual({ ...item, id: 'x' }, {
      id: 'x',
      url: receiver.url,
      itemCount: 1,
      format: 'call-event',
      stream: 'call-1',
      attempts: 0,
      state: 'pending',
      dueAt: formatInfobipTime(later),
    });
  });

  it('shows another account nothing', async () => {
    const { key } = await otherAccount(server.ctx.store, clock.now());
    assert.deepEqual(await attempts('', key), []);
    assert.deepEqual(await items('', key), []);
  });

  it('rejects bad query parameters with 400 naming them', async () => {
    for (const [query, property] of [
      ['/items?state=bogus', 'state'],
      ['/items?limit=0', 'limit'],
      ['/attempts?limit=1001', 'limit'],
      ['/attempts?before=abc', 'before'],
    ]) {
      const response = await server.request('GET', `/switchboard/1/webhooks${query}`);
      assert.equal(response.status, 400, query);
      assert.deepEqual(Object.keys(response.json().requestError.serviceException.validationErrors), [property], query);
    }
  });
});
