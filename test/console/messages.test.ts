import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { NewMessage } from '../../src/core/store/types.js';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { otherAccount, TIME } from '../sms/read-fixtures.js';

type Row = Record<string, any>;

const CARD = {
  type: 'CARD',
  orientation: 'VERTICAL',
  alignment: 'LEFT',
  content: { title: 'Your order shipped', description: 'Arrives Thursday', media: { file: { url: 'https://example.com/box.png' }, height: 'MEDIUM' } },
};
const LONG_UNICODE = `Grüße ☺ ${'x'.repeat(70)}`;

describe('the console messages API', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  const sent: Record<string, string> = {};
  before(async () => {
    server = await startTestServer();
    receiver = await WebhookReceiver.start();
    const sms = async (to: string, text: string, extra: Record<string, unknown> = {}) => {
      const response = await server.request('POST', '/sms/3/messages', {
        body: { messages: [{ sender: 'ACME', destinations: [{ to }], content: { text }, webhooks: { delivery: { url: receiver.url }, ...extra } }] },
      });
      assert.equal(response.status, 200, response.text);
      return response.json().messages[0].messageId as string;
    };
    sent.hello = await sms('41793026727', 'Hello there', { callbackData: 'cb-1' });
    sent.unicode = await sms('41793026728', LONG_UNICODE);
    const rcs = await server.request('POST', '/rcs/2/messages', {
      body: { messages: [{ sender: 'AcmeAgent', destinations: [{ to: '41793026001' }], content: CARD }] },
    });
    sent.card = rcs.json().messages[0].messageId;
    const failover = await server.request('POST', '/rcs/2/messages', {
      body: { messages: [{ sender: 'AcmeAgent', destinations: [{ to: '41793029021' }], content: { type: 'TEXT', text: 'rich' }, options: { smsFailover: { sender: 'ACME', text: 'plain' } } }] },
    });
    sent.rcs = failover.json().messages[0].messageId;
    await eventually(async () => {
      // Every message ended: the RCS one that failed over ends reporting PENDING_ENROUTE, its SMS delivered.
      const rows = (await list('')).filter((row) => row.doneAt !== undefined);
      return rows.length === 5 ? true : undefined;
    });
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const list = async (query: string, key?: string): Promise<Row[]> => {
    const response = await server.request('GET', `/switchboard/1/messages${query}`, { key });
    assert.equal(response.status, 200, response.text);
    return response.json().results;
  };
  const ids = (rows: Row[]) => rows.map((row) => row.messageId ?? row.failoverOf);

  it('lists every channel newest first, each row with its fields', async () => {
    const rows = await list('');
    const seqs = rows.map((row) => Number(row.seq));
    assert.deepEqual(seqs, [...seqs].sort((a, b) => b - a));
    const failoverSms = rows.find((row) => row.failoverOf === sent.rcs)!;
    assert.deepEqual([failoverSms.channel, failoverSms.api, failoverSms.text, failoverSms.status.name], ['SMS', 'rcs2', 'plain', 'DELIVERED_TO_HANDSET']);
    const failedOver = rows.find((row) => row.messageId === sent.rcs)!;
    assert.deepEqual([failedOver.status.name, failedOver.error?.name], ['PENDING_ENROUTE', 'EC_UNKNOWN_USER']);
    const hello = rows.find((row) => row.messageId === sent.hello)!;
    for (const key of ['createdAt', 'sentAt', 'doneAt']) assert.match(hello[key], TIME, key);
    assert.deepEqual({ ...hello, seq: 'x', bulkId: 'x', createdAt: 'x', sentAt: 'x', doneAt: 'x' }, {
      seq: 'x',
      messageId: sent.hello,
      bulkId: 'x',
      channel: 'SMS',
      api: 'sms3',
      from: 'ACME',
      to: '41793026727',
      text: 'Hello there',
      encoding: 'GSM7',
      parts: 1,
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      createdAt: 'x',
      sentAt: 'x',
      doneAt: 'x',
    });
    const card = rows.find((row) => row.messageId === sent.card)!;
    assert.deepEqual([card.channel, card.api, card.text, card.contentType, card.encoding], ['RCS', 'rcs2', 'Your order shipped', 'CARD', 'RCS']);
    assert.deepEqual([rows.find((row) => row.messageId === sent.unicode)?.encoding, rows.find((row) => row.messageId === sent.unicode)?.parts], ['UCS2', 2]);
  });

  it('filters by channel, number, status, bulk, text, seqs and pages with before', async () => {
    const all = await list('');
    assert.deepEqual(new Set(ids(await list('?channel=RCS'))), new Set([sent.card, sent.rcs]));
    assert.equal((await list('?channel=SMS')).length, 3);
    assert.deepEqual(ids(await list('?number=%2B41793026727')), [sent.hello]);
    assert.deepEqual(ids(await list('?number=ACME')).length, 3);
    assert.deepEqual(ids(await list('?status=PENDING')), [sent.rcs]);
    assert.deepEqual(await list('?status=UNDELIVERABLE'), []);
    const hello = all.find((row) => row.messageId === sent.hello)!;
    assert.deepEqual(ids(await list(`?bulkId=${hello.bulkId}`)), [sent.hello]);
    assert.deepEqual(ids(await list('?text=HELLO')), [sent.hello]);
    assert.deepEqual(ids(await list('?text=thursday')), [sent.card]);
    assert.deepEqual(ids(await list(`?seqs=${all[0].seq},${hello.seq}`)), [all[0].messageId ?? all[0].failoverOf, sent.hello].filter((v, i, a) => a.indexOf(v) === i));
    assert.deepEqual(ids(await list(`?limit=2&before=${all[1].seq}`)), ids(all.slice(2, 4)));
    assert.deepEqual(await list('?text=nothing-like-this'), []);
  });

  it('opens a message to its encoding, life and webhook attempts', async () => {
    const response = await server.request('GET', `/switchboard/1/messages/${sent.hello}`);
    assert.equal(response.status, 200, response.text);
    const detail = response.json();
    assert.deepEqual(detail.content, { text: 'Hello there' });
    assert.equal(detail.callbackData, 'cb-1');
    assert.equal(detail.webhookUrl, receiver.url);
    assert.match(detail.validUntil, TIME);
    assert.deepEqual(detail.encoding, { encoding: 'GSM7', characters: 11, parts: 1, partTexts: ['Hello there'] });
    assert.deepEqual(detail.life.map((e: Row) => [e.event, e.status?.name]), [
      ['ACCEPTED', undefined],
      ['SUBMITTED', undefined],
      ['REPORT', 'DELIVERED_TO_HANDSET'],
      ['FINAL', 'DELIVERED_TO_HANDSET'],
    ]);
    assert.equal(detail.life[1].detail, 'sandbox');
    assert.equal(detail.life[2].detail, `sms-dlr to ${receiver.url}`);
    assert.equal(detail.webhooks.length, 1);
    const [webhook] = detail.webhooks;
    assert.deepEqual([webhook.url, webhook.format, webhook.state], [receiver.url, 'sms-dlr', 'delivered']);
    assert.deepEqual(webhook.attempts.map((a: Row) => [a.httpStatus, a.outcome, a.responseBody]), [[200, 'delivered', 'ok']]);

    const unicode = (await server.request('GET', `/switchboard/1/messages/${sent.unicode}`)).json();
    assert.equal(unicode.encoding.encoding, 'UCS2');
    assert.equal(unicode.encoding.parts, 2);
    assert.equal(unicode.encoding.partTexts.join(''), LONG_UNICODE);
    assert.deepEqual(unicode.encoding.unicodeCharacters, ['☺']);
  });

  it('opens an SMS failover to the report pushed under its RCS message', async () => {
    const failover = (await list('?channel=SMS')).find((row) => row.failoverOf === sent.rcs)!;
    const detail = (await server.request('GET', `/switchboard/1/messages/${failover.messageId}`)).json();
    assert.equal(detail.message.failoverOf, sent.rcs);
    assert.deepEqual(detail.life.map((e: Row) => e.event), ['ACCEPTED', 'SUBMITTED', 'FINAL']);
    const rcs = (await server.request('GET', `/switchboard/1/messages/${sent.rcs}`)).json();
    assert.equal(rcs.encoding.encoding, 'RCS');
    assert.deepEqual(rcs.life.map((e: Row) => e.event).at(-1), 'FINAL');
  });

  it('shows another account nothing', async () => {
    const { key } = await otherAccount(server.ctx.store, Date.now());
    assert.deepEqual(await list('', key), []);
    assert.equal((await server.request('GET', `/switchboard/1/messages/${sent.hello}`, { key })).status, 404);
    const unknown = await server.request('GET', '/switchboard/1/messages/no-such-message');
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.json()), ['requestError']);
  });

  it('refuses bad queries with 400 naming the parameter', async () => {
    const seqs = Array.from({ length: 1001 }, (_, i) => i + 1).join(',');
    for (const [query, property] of [
      ['?limit=10001', 'limit'],
      ['?limit=0', 'limit'],
      ['?status=ACCEPTED', 'status'],
      ['?channel=MMS', 'channel'],
      ['?seqs=1,,2', 'seqs'],
      [`?seqs=${seqs}`, 'seqs'],
      ['?before=abc', 'before'],
    ]) {
      const response = await server.request('GET', `/switchboard/1/messages${query}`);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.deepEqual(Object.keys(response.json().requestError.serviceException.validationErrors), [property], query);
    }
  });

  it('gives a page of 10 000 rows in one query', async () => {
    const { accountId, key } = await otherAccount(server.ctx.store, Date.now());
    const now = Date.now();
    const message = (i: number): NewMessage => ({
      accountId,
      messageId: randomUUID(),
      bulkId: `bulk-${i % 7}`,
      api: 'sms3',
      sender: 'ACME',
      destination: `4179${String(i).padStart(7, '0')}`,
      content: { text: `Message number ${i}` },
      encoding: 'GSM7',
      messageCount: 1,
      webhook: { intermediateReport: false, notify: true },
      createdAt: now,
      dueAt: now,
      validUntil: now + 3_600_000,
      state: 'final',
      status: { groupId: 3, id: 5 },
      errorId: 0,
    });
    for (let start = 0; start < 10_050; start += 1_000) {
      await server.ctx.store.messages.insertMany(Array.from({ length: Math.min(1_000, 10_050 - start) }, (_, i) => message(start + i)));
    }
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      await server.ctx.store.messages.browse({ accountId, since: now - 1000, limit: 10_000 });
      const storeMs = performance.now() - started;
      await list('?limit=10000', key);
      console.log(`# 10 000 messages on ${server.ctx.store.driver}: store ${storeMs.toFixed(0)} ms, GET ${(performance.now() - started - storeMs).toFixed(0)} ms`);
    }
    const rows = await list('?limit=10000', key);
    assert.equal(rows.length, 10_000);
    assert.equal(rows[0]!.text, 'Message number 10049');
    assert.equal(rows[9_999]!.text, 'Message number 50');
    const filtered = await list('?limit=10000&text=number 1004', key);
    assert.deepEqual(filtered.map((row) => row.text), Array.from({ length: 10 }, (_, i) => `Message number 1004${9 - i}`).concat('Message number 1004'));
  });
});
