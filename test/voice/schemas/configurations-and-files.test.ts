import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccepted, assertRefused, startCallsApp, type CallsApp } from './calls-app.js';

let calls: CallsApp;
before(async () => {
  calls = await startCallsApp();
});
after(() => calls.close());

describe('calls configurations', () => {
  it('creates with an id and a name, or with neither', async () => {
    const full = await calls.request('POST', '/calls/1/configurations', { id: 'Support_line-2', name: 'Support line', extra: true });
    assertAccepted(full);
    assert.deepEqual([full.body.id, full.body.name], ['Support_line-2', 'Support line']);
    assertAccepted(await calls.request('POST', '/calls/1/configurations', {}));
  });

  it('bounds the id to 1–128 letters, digits, _ and -', async () => {
    assertAccepted(await calls.request('POST', '/calls/1/configurations', { id: 'i'.repeat(128) }));
    const cases: Array<[unknown, string | RegExp]> = [
      ['', 'must not be blank'],
      ['i'.repeat(129), 'size must be between 0 and 128'],
      ['support line', /pattern/],
      ['support.line', /pattern/],
      ['ünïcode', /pattern/],
      [42, 'must be string'],
    ];
    for (const [id, violation] of cases) assertRefused(await calls.request('POST', '/calls/1/configurations', { id }), 'id', violation);
  });

  it('bounds the name to 1–128 characters on create and update', async () => {
    for (const [method, url] of [['POST', '/calls/1/configurations'], ['PUT', '/calls/1/configurations/conf-1']] as const) {
      assertAccepted(await calls.request(method, url, { name: 'n'.repeat(128) }));
      assertRefused(await calls.request(method, url, { name: '' }), 'name', 'must not be blank');
      assertRefused(await calls.request(method, url, { name: 'n'.repeat(129) }), 'name', 'size must be between 0 and 128');
      assertRefused(await calls.request(method, url, { name: ['x'] }), 'name', 'must be string');
    }
  });

  it('requires a body on create and update', async () => {
    assertRefused(await calls.request('POST', '/calls/1/configurations'), 'body', 'must be object');
    assertRefused(await calls.request('PUT', '/calls/1/configurations/conf-1'), 'body', 'must be object');
  });

  it('pages with page ≥ 0 and size 1–100, 0 and 20 by default', async () => {
    const defaults = await calls.request('GET', '/calls/1/configurations');
    assertAccepted(defaults);
    assert.deepEqual(defaults.body, { page: 0, size: 20 });
    assertAccepted(await calls.request('GET', '/calls/1/configurations?page=0&size=100'));
    assertRefused(await calls.request('GET', '/calls/1/configurations?size=101'), 'size');
    assertRefused(await calls.request('GET', '/calls/1/configurations?size=0'), 'size');
    assertRefused(await calls.request('GET', '/calls/1/configurations?page=-1'), 'page');
  });

  it('takes configuration ids up to 128 characters in the path', async () => {
    const longest = await calls.request('GET', `/calls/1/configurations/${'c'.repeat(128)}`);
    assertAccepted(longest);
    assert.equal(longest.body.callsConfigurationId, 'c'.repeat(128));
    assertRefused(await calls.request('GET', `/calls/1/configurations/${'c'.repeat(129)}`), 'callsConfigurationId');
  });
});

describe('files', () => {
  it('pages with page ≥ 0 and size 1–100, 0 and 20 by default', async () => {
    const defaults = await calls.request('GET', '/calls/1/files');
    assertAccepted(defaults);
    assert.deepEqual(defaults.body, { page: 0, size: 20 });
    const last = await calls.request('GET', '/calls/1/files?page=150&size=100');
    assertAccepted(last);
    assert.deepEqual(last.body, { page: 150, size: 100 });
    assertRefused(await calls.request('GET', '/calls/1/files?size=101'), 'size');
    assertRefused(await calls.request('GET', '/calls/1/files?page=x'), 'page', 'must be integer');
  });

  it('takes file ids up to 128 characters in the path', async () => {
    assertAccepted(await calls.request('GET', `/calls/1/files/${'f'.repeat(128)}`));
    assertRefused(await calls.request('GET', `/calls/1/files/${'f'.repeat(129)}`), 'fileId', 'size must be between 0 and 128');
  });
});
