import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED, otherAccount, seedInbound, seedMessages } from './read-fixtures.js';

const READ_PATHS = ['/sms/3/reports', '/sms/1/reports', '/sms/3/logs', '/sms/1/logs', '/sms/1/inbox/reports'];
const NEW_FAMILY = new Set(['/sms/3/reports', '/sms/3/logs']);

describe('SMS read endpoints: accounts and keys', () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 4, 10, 0, 0));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  it("never show one account's reports, logs or inbound messages to another", async () => {
    const a = await defaultAccountId(server);
    const b = await otherAccount(server.ctx.store, clock.now());
    const now = clock.now();
    const [message] = await seedMessages(server.ctx.store, a, now, [
      { bulkId: 'shared-bulk', sender: 'ACME', final: { status: DELIVERED, at: now, mccMnc: '22801' } },
    ]);
    const inbound = await seedInbound(server.ctx.store, a, now);

    for (const path of ['/sms/3/reports', '/sms/1/reports']) {
      assert.deepEqual((await server.request('GET', path, { key: b.key })).json(), { results: [] }, path);
    }
    for (const path of ['/sms/3/logs', '/sms/1/logs', `/sms/3/logs?messageId=${message!.messageId}`, '/sms/1/logs?bulkId=shared-bulk']) {
      assert.deepEqual((await server.request('GET', path, { key: b.key })).json(), { results: [] }, path);
    }
    assert.deepEqual((await server.request('GET', '/sms/1/inbox/reports', { key: b.key })).json(), {
      results: [],
      messageCount: 0,
      pendingMessageCount: 0,
    });

    // B's pulls consumed nothing of A's.
    const reports = (await server.request('GET', '/sms/3/reports')).json().results;
    assert.deepEqual(reports.map((r: { messageId: string }) => r.messageId), [message!.messageId]);
    const logs = (await server.request('GET', '/sms/3/logs?bulkId=shared-bulk')).json().results;
    assert.deepEqual(logs.map((r: { messageId: string }) => r.messageId), [message!.messageId]);
    const mo = (await server.request('GET', '/sms/1/inbox/reports')).json();
    assert.deepEqual(mo.results.map((r: { messageId: string }) => r.messageId), [inbound.messageId]);

    // And A sees nothing of B's.
    const [own] = await seedMessages(server.ctx.store, b.accountId, now, [{ bulkId: 'shared-bulk', final: { status: DELIVERED, at: now } }]);
    assert.deepEqual((await server.request('GET', '/sms/3/reports')).json(), { results: [] });
    const bLogs = (await server.request('GET', '/sms/3/logs?bulkId=shared-bulk', { key: b.key })).json().results;
    assert.deepEqual(bLogs.map((r: { messageId: string }) => r.messageId), [own!.messageId]);
  });

  it('answers a missing or wrong key with 401 in the family envelope', async () => {
    for (const path of READ_PATHS) {
      for (const key of [null, 'wrong-key-0123456789abcdef']) {
        const response = await server.request('GET', path, { key });
        assert.equal(response.status, 401, `${path} ${key}`);
        const body = response.json();
        if (NEW_FAMILY.has(path)) {
          assert.equal(body.errorCode, 'E401');
          assert.deepEqual(Object.keys(body).sort(), ['action', 'description', 'errorCode', 'resources', 'violations']);
        } else {
          assert.deepEqual(body, { requestError: { serviceException: { messageId: 'UNAUTHORIZED', text: 'Invalid login details' } } });
        }
      }
    }
  });

  it('checks the key before the query: a bad query without a key is still a 401', async () => {
    const response = await server.request('GET', '/sms/3/logs?limit=0&mnc=1', { key: null });
    assert.equal(response.status, 401);
  });
});
