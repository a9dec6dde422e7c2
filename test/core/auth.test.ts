import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, testStoreKind, type TestServer } from '../helpers/server.js';

const NEW_KEYS = ['action', 'description', 'errorCode', 'resources', 'violations'];

describe('authentication', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('rejects a missing key with 401 in the new envelope on SMS v3', async () => {
    const response = await server.request('GET', '/sms/3/reports', { key: null });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), NEW_KEYS);
    assert.equal(body.errorCode, 'E401');
    assert.deepEqual(body.violations, []);
  });

  it('rejects a wrong key with 401 in the legacy envelope on legacy endpoints', async () => {
    for (const url of ['/sms/1/reports', '/sms/1/inbox/reports', '/subscriptions/1/subscription/SMS']) {
      const response = await server.request('GET', url, { key: 'wrong-key-0123456789' });
      assert.equal(response.status, 401, url);
      assert.deepEqual(response.json(), {
        requestError: { serviceException: { messageId: 'UNAUTHORIZED', text: 'Invalid login details' } },
      });
    }
  });

  it('accepts the App scheme word in any case', async () => {
    for (const scheme of ['App', 'app', 'APP']) {
      const response = await server.request('GET', '/sms/3/reports', { headers: { authorization: `${scheme} ${server.apiKey}` } });
      assert.equal(response.status, 200, scheme);
    }
  });

  it('does not accept other schemes with the key', async () => {
    const basic = Buffer.from(`user:${server.apiKey}`).toString('base64');
    for (const header of [`Basic ${basic}`, `Bearer ${server.apiKey}`, server.apiKey]) {
      const response = await server.request('GET', '/sms/3/reports', { headers: { authorization: header } });
      assert.equal(response.status, 401, header.slice(0, 6));
    }
  });

  it('stops accepting a revoked key', async () => {
    const account = await server.ctx.store.accounts.findByName('default');
    assert.ok(account);
    const { generateApiKey, hashApiKey, keyLookup } = await import('../../src/core/auth/api-keys.js');
    const key = generateApiKey();
    await server.ctx.store.keys.create({ id: 'revokeme', accountId: account.id, name: 't', lookup: keyLookup(key), hash: hashApiKey(key), createdAt: Date.now() });
    assert.equal((await server.request('GET', '/sms/3/reports', { key })).status, 200);
    assert.equal(await server.ctx.store.keys.revoke('revokeme', Date.now()), true);
    server.ctx.authenticator.forget();
    assert.equal((await server.request('GET', '/sms/3/reports', { key })).status, 401);
  });

  it('stores keys hashed: the key never appears in the database file', { skip: testStoreKind() !== 'sqlite' }, async () => {
    const file = path.join(server.env.DATA_DIR!, 'switchboard.db');
    const bytes = Buffer.concat([await readFile(file), await readFile(`${file}-wal`).catch(() => Buffer.alloc(0))]);
    assert.equal(bytes.includes(Buffer.from(server.apiKey)), false);
    assert.equal(bytes.includes(Buffer.from(server.apiKey.slice(0, 8))), true, 'the lookup prefix is kept in clear');
  });

  it('leaves /health, /metrics and the OpenAPI document public', async () => {
    for (const url of ['/health', '/metrics', '/openapi.json']) {
      assert.equal((await server.request('GET', url, { key: null })).status, 200, url);
    }
  });
});
