import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('calls configurations over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('creates (201, generating a 24-hex id when none is given), pages, reads, renames and deletes configurations', async () => {
    const generated = await server.request('POST', '/calls/1/configurations', { body: { name: 'Generated' } });
    assert.equal(generated.status, 201);
    assert.match(generated.json().id, /^[0-9a-f]{24}$/);
    const named = await server.request('POST', '/calls/1/configurations', { body: { id: 'ivr_main-1', name: 'IVR' } });
    assert.deepEqual([named.status, named.json()], [201, { id: 'ivr_main-1', name: 'IVR' }]);
    const duplicate = await server.request('POST', '/calls/1/configurations', { body: { id: 'ivr_main-1' } });
    assert.deepEqual([duplicate.status, Object.keys(duplicate.json().requestError.serviceException.validationErrors)], [400, ['id']]);

    const page = (await server.request('GET', '/calls/1/configurations?page=0&size=1')).json();
    assert.deepEqual([page.results.length, page.paging], [1, { page: 0, size: 1, totalPages: 2, totalResults: 2 }]);
    assert.deepEqual((await server.request('GET', '/calls/1/configurations/ivr_main-1')).json(), { id: 'ivr_main-1', name: 'IVR' });
    const renamed = await server.request('PUT', '/calls/1/configurations/ivr_main-1', { body: { name: 'Main IVR' } });
    assert.deepEqual([renamed.status, renamed.json()], [200, { id: 'ivr_main-1', name: 'Main IVR' }]);
    const deleted = await server.request('DELETE', '/calls/1/configurations/ivr_main-1');
    assert.deepEqual([deleted.status, deleted.json()], [200, { id: 'ivr_main-1', name: 'Main IVR' }]);
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      const gone = await server.request(method, '/calls/1/configurations/ivr_main-1', body ? { body } : {});
      assert.deepEqual([gone.status, gone.json().requestError.serviceException.messageId], [404, 'NOT_FOUND'], method);
    }
  });

  it('refuses ids and names out of bounds, naming the field, and keeps accounts apart', async () => {
    const refused = async (body: unknown) => Object.keys((await server.request('POST', '/calls/1/configurations', { body })).json().requestError.serviceException.validationErrors);
    assert.deepEqual(await refused({ id: 'has space' }), ['id']);
    assert.deepEqual(await refused({ id: 'x'.repeat(129) }), ['id']);
    assert.deepEqual(await refused({ name: '' }), ['name']);
    assert.deepEqual(await refused({ name: 'n'.repeat(129) }), ['name']);
    const longest = await server.request('POST', '/calls/1/configurations', { body: { id: 'i'.repeat(128) } });
    assert.equal(longest.status, 201);
    assert.equal((await server.request('GET', `/calls/1/configurations/${'i'.repeat(128)}`)).status, 200, 'a 128-character id fits in the path');

    const account = await server.ctx.store.accounts.ensure('other-account', Date.now());
    await server.ctx.store.callsConfigurations.create({ accountId: account.id, id: 'theirs', createdAt: Date.now() });
    assert.equal((await server.request('GET', '/calls/1/configurations/theirs')).status, 404, "another account's configuration is not seen");
  });
});
