import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { otherAccount } from '../helpers/accounts.js';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';

describe('sandbox API account isolation', () => {
  let server: TestServer;
  let other: { accountId: string; key: string };
  before(async () => {
    server = await startTestServer();
    other = await otherAccount(server.ctx.store, Date.now());
  });
  after(() => server.close());

  it("one account never sees another's phone inbox, rules or injected inbound", async () => {
    const sent = await server.request('POST', '/sms/3/messages', {
      body: { messages: [{ destinations: [{ to: '41790001234' }], content: { text: 'code 424242' } }] },
    });
    assert.equal(sent.status, 200);
    const mine = await eventually(async () => {
      const inbox = (await server.request('GET', '/sandbox/1/phones/41790001234/messages')).json();
      return inbox.messages.length > 0 ? inbox : undefined;
    });
    assert.equal(mine.messages[0].text, 'code 424242');
    const theirs = (await server.request('GET', '/sandbox/1/phones/41790001234/messages', { key: other.key })).json();
    assert.deepEqual(theirs.messages, []);

    const put = await server.request('PUT', '/sandbox/1/rules', { body: { rules: [{ match: { suffix: '1234' }, outcome: 'REJECTED' }] } });
    assert.equal(put.status, 200);
    assert.deepEqual((await server.request('GET', '/sandbox/1/rules', { key: other.key })).json(), { rules: [] });

    const injected = await server.request('POST', '/sandbox/1/sms/inbound', { body: { from: '41790009999', to: '447700900001', text: 'HELLO' }, key: other.key });
    assert.equal(injected.status, 200);
    const myInbox = (await server.request('GET', '/sms/1/inbox/reports')).json();
    assert.equal(myInbox.results.length, 0, 'the other account injected it');
    const theirInbox = (await server.request('GET', '/sms/1/inbox/reports', { key: other.key })).json();
    assert.equal(theirInbox.results.length, 1);
  });
});
