import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { otherAccount } from '../helpers/accounts.js';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';

const T0 = Date.UTC(2025, 2, 4, 10, 15, 30);
const PHONE = '41793026101';
const RCS_PHONE = '41793026102';

type Entry = Record<string, any>;

describe('virtual phones: the list of them, and what each sent', () => {
  const clock = new ManualClock(T0);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const get = async (path: string, key?: string) => {
    const response = await server.request('GET', path, { key });
    assert.equal(response.status, 200, response.text);
    return response.json();
  };
  const messagesOf = async (number: string, query = '') => (await get(`/sandbox/1/phones/${number}/messages${query}`)).messages as Entry[];

  it('lists every phone with its counts and last text, and a phone keeps what it sent apart unless asked', async () => {
    for (const text of ['Your code is 1234', 'Your code is 5678']) {
      const sent = await server.request('POST', '/sms/3/messages', { body: { messages: [{ sender: 'ACME', destinations: [{ to: PHONE }], content: { text } }] } });
      assert.equal(sent.status, 200, sent.text);
      clock.advance(1000);
    }
    await eventually(async () => ((await messagesOf(PHONE)).length === 2 ? true : undefined));
    clock.advance(1000);
    const inbound = await server.request('POST', '/sandbox/1/sms/inbound', { body: { from: `+${PHONE}`, to: '447700900000', text: 'STOP' } });
    assert.equal(inbound.status, 200, inbound.text);
    clock.advance(1000);
    const reply = await server.request('POST', '/sandbox/1/rcs/inbound', {
      body: { from: RCS_PHONE, to: 'AcmeAgent', suggestion: { text: 'Yes please', postbackData: 'yes' } },
    });
    assert.equal(reply.status, 200, reply.text);
    const location = await server.request('POST', '/sandbox/1/rcs/inbound', {
      body: { from: RCS_PHONE, to: 'AcmeAgent', location: { latitude: 45.8, longitude: 15.97 } },
    });
    assert.equal(location.status, 200, location.text);

    assert.deepEqual((await get('/sandbox/1/phones')).phones, [
      { number: RCS_PHONE, lastAt: formatInfobipTime(T0 + 4000), received: 0, sent: 2 },
      { number: PHONE, lastAt: formatInfobipTime(T0 + 3000), received: 2, sent: 1, lastText: 'STOP' },
    ]);
    assert.deepEqual((await get('/sandbox/1/phones?limit=1')).phones.map((p: Entry) => p.number), [RCS_PHONE]);

    const received = await messagesOf(PHONE);
    assert.deepEqual(received.map((m) => [m.direction, m.text]), [['received', 'Your code is 5678'], ['received', 'Your code is 1234']]);
    const all = await messagesOf(PHONE, '?include=sent');
    assert.deepEqual(all[0], {
      channel: 'SMS',
      direction: 'sent',
      messageId: inbound.json().messageId,
      to: '447700900000',
      text: 'STOP',
      receivedAt: formatInfobipTime(T0 + 3000),
    });
    assert.equal(all.length, 3);

    assert.deepEqual(await messagesOf(RCS_PHONE), []);
    const rcs = await messagesOf(RCS_PHONE, '?include=sent');
    assert.deepEqual(rcs.map((m) => [m.channel, m.direction, m.to, m.text, m.payload.content.type]), [
      ['RCS', 'sent', 'AcmeAgent', undefined, 'LOCATION'],
      ['RCS', 'sent', 'AcmeAgent', 'Yes please', 'SUGGESTION'],
    ]);
    assert.equal(rcs[1]!.messageId, reply.json().messageId);
  });

  it('shows another account none of it', async () => {
    const { key } = await otherAccount(server.ctx.store, clock.now());
    assert.deepEqual(await get('/sandbox/1/phones', key), { phones: [] });
    assert.deepEqual(await get(`/sandbox/1/phones/${PHONE}/messages?include=sent`, key), { number: PHONE, messages: [] });
  });

  it('refuses a bad include or limit with 400 naming it', async () => {
    for (const [path, property] of [
      [`/sandbox/1/phones/${PHONE}/messages?include=everything`, 'include'],
      ['/sandbox/1/phones?limit=1001', 'limit'],
      ['/sandbox/1/phones?limit=0', 'limit'],
    ]) {
      const response = await server.request('GET', path!);
      assert.equal(response.status, 400, path);
      assert.deepEqual(Object.keys(response.json().requestError.serviceException.validationErrors), [property], path);
    }
  });
});
