import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { otherAccount } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId, DELIVERED } from '../sms/read-fixtures.js';
import { seedRcs } from './rcs-fixtures.js';

const ids = (body: { results: Array<{ messageId: string }> }): string[] => body.results.map((r) => r.messageId);

describe('RCS read endpoints: accounts and keys', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 3, 14, 0, 0));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  it("never show one account's RCS reports or logs to another", async () => {
    const a = await defaultAccountId(server);
    const b = await otherAccount(server.ctx.store, clock.now());
    const now = clock.now();
    const [message] = await seedRcs(server.ctx.store, a, now, [{ bulkId: 'shared-bulk', final: { status: DELIVERED, at: now } }]);

    for (const path of ['/rcs/2/reports', '/rcs/2/logs', `/rcs/2/logs?messageId=${message!.messageId}`, '/rcs/2/logs?bulkId=shared-bulk']) {
      assert.deepEqual((await server.request('GET', path, { key: b.key })).json(), { results: [] }, path);
    }
    assert.deepEqual(ids((await server.request('GET', '/rcs/2/reports')).json()), [message!.messageId], "B's pull consumed nothing of A's");

    const [own] = await seedRcs(server.ctx.store, b.accountId, now, [{ bulkId: 'shared-bulk', final: { status: DELIVERED, at: now } }]);
    assert.deepEqual((await server.request('GET', '/rcs/2/reports')).json(), { results: [] });
    assert.deepEqual(ids((await server.request('GET', '/rcs/2/logs?bulkId=shared-bulk')).json()), [message!.messageId]);
    assert.deepEqual(ids((await server.request('GET', '/rcs/2/logs?bulkId=shared-bulk', { key: b.key })).json()), [own!.messageId]);
  });

  it('answers a missing or wrong key with 401 in the new envelope', async () => {
    for (const path of ['/rcs/2/reports', '/rcs/2/logs']) {
      for (const key of [null, 'wrong-key-0123456789abcdef']) {
        const response = await server.request('GET', path, { key });
        assert.equal(response.status, 401, `${path} ${key}`);
        const body = response.json();
        assert.equal(body.errorCode, 'E401');
        assert.deepEqual(Object.keys(body).sort(), ['action', 'description', 'errorCode', 'resources', 'violations']);
      }
    }
  });
});
