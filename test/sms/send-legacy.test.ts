import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { accountOf, PENDING_ACCEPTED_WIRE } from './send-fixtures.js';

const HOUR = 3_600_000;

interface LegacyEntry {
  to: string;
  status: { name: string };
  messageId: string;
  smsCount: number;
}

describe('legacy send endpoints', () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 4, 10, 0, 0));
  let server: TestServer;
  let accountId: string;
  before(async () => {
    server = await startTestServer({ clock });
    accountId = await accountOf(server);
  });
  after(() => server.close());

  const send = async (path: string, body: unknown): Promise<{ bulkId: string; messages: LegacyEntry[] }> => {
    const response = await server.request('POST', path, { body });
    assert.equal(response.status, 200, response.text);
    return response.json();
  };

  it('POST /sms/2/text/advanced answers with to, status, messageId and smsCount', async () => {
    const response = await send('/sms/2/text/advanced', {
      bulkId: 'legacy-bulk',
      messages: [{ from: 'Shop', destinations: [{ to: '41793026727', messageId: 'legacy-1' }, { to: '41793026728' }], text: 'a'.repeat(200) }],
    });
    assert.equal(response.bulkId, 'legacy-bulk');
    assert.deepEqual(Object.keys(response.messages[0]!), ['to', 'status', 'messageId', 'smsCount']);
    assert.deepEqual(response.messages[0], { to: '41793026727', status: PENDING_ACCEPTED_WIRE, messageId: 'legacy-1', smsCount: 2 });
    assert.equal(response.messages[1]!.to, '41793026728');
    assert.match(response.messages[1]!.messageId, /^[0-9a-f-]{36}$/);
    const stored = await server.ctx.store.messages.get(accountId, 'legacy-1');
    assert.equal(stored?.api, 'sms2');
    assert.equal(stored?.sender, 'Shop');
    assert.equal(stored?.bulkId, 'legacy-bulk');
  });

  it('stores legacy webhook, platform, validity and scheduling fields', async () => {
    const sendAt = clock.now() + 2 * HOUR;
    await send('/sms/2/text/advanced', {
      messages: [
        {
          destinations: [{ to: '41793026727', messageId: 'legacy-opts' }],
          text: 'hi',
          notifyUrl: 'https://hooks.example.com/legacy',
          notifyContentType: 'application/json',
          intermediateReport: true,
          callbackData: 'cb',
          entityId: 'ent',
          applicationId: 'app',
          campaignReferenceId: 'camp',
          validityPeriod: 90,
          sendAt: formatInfobipTime(sendAt),
          flash: true,
        },
      ],
      tracking: { track: 'SMS', type: 'ONE_TIME_PIN' },
    });
    const stored = await server.ctx.store.messages.get(accountId, 'legacy-opts');
    assert.ok(stored);
    assert.deepEqual(stored.webhook, { url: 'https://hooks.example.com/legacy', intermediateReport: true, notify: true, contentType: 'application/json' });
    assert.deepEqual([stored.callbackData, stored.entityId, stored.applicationId, stored.campaignReferenceId], ['cb', 'ent', 'app', 'camp']);
    assert.equal(stored.dueAt, sendAt);
    assert.equal(stored.validUntil, sendAt + 90 * 60_000);
    assert.deepEqual(stored.extras, { tracking: { track: 'SMS', type: 'ONE_TIME_PIN' }, flash: true });
  });

  it('staggers legacy messages by the top-level speed limit', async () => {
    const now = clock.now();
    const response = await send('/sms/2/text/advanced', {
      messages: [{ destinations: [{ to: '411' }, { to: '412' }, { to: '413' }], text: 'x', sendAt: formatInfobipTime(now + HOUR) }],
      sendingSpeedLimit: { amount: 1, timeUnit: 'DAY' },
    });
    const due = [];
    for (const entry of response.messages) due.push((await server.ctx.store.messages.get(accountId, entry.messageId))!.dueAt - now);
    assert.deepEqual(due, [HOUR, HOUR + 24 * HOUR, HOUR + 48 * HOUR]);
  });

  it('rejects destinations and duplicate ids per destination', async () => {
    await send('/sms/2/text/advanced', { messages: [{ destinations: [{ to: '411', messageId: 'legacy-dup' }], text: 'x' }] });
    const response = await send('/sms/2/text/advanced', {
      messages: [{ destinations: [{ to: '412', messageId: 'legacy-dup' }, { to: 'SHOP' }, { to: '' }], text: 'x' }],
    });
    assert.deepEqual(response.messages.map((m) => m.status.name), ['REJECTED_DUPLICATE_MESSAGE_ID', 'REJECTED_DESTINATION', 'MISSING_TO']);
  });

  it('POST /sms/2/binary/advanced counts octets and stores the binary content', async () => {
    const response = await send('/sms/2/binary/advanced', {
      messages: [
        { destinations: [{ to: '41793026727', messageId: 'bin-1' }], binary: { hex: '0f c2 4a bf 34 13 ba', dataCoding: 4, esmClass: 0 } },
        { destinations: [{ to: '41793026727' }], binary: { hex: 'ab'.repeat(300) } },
      ],
    });
    assert.deepEqual(response.messages.map((m) => m.smsCount), [1, 3]);
    const stored = await server.ctx.store.messages.get(accountId, 'bin-1');
    assert.equal(stored?.encoding, 'BINARY');
    assert.deepEqual(stored?.content, { hex: '0f c2 4a bf 34 13 ba', dataCoding: 4, esmClass: 0 });
  });

  it('counts with the national language table when a languageCode is given', async () => {
    const text = 'Mesaj gönderimi yapmadan önce önizleme seçeneğini kullanmanız doğru karar vermenize yardımcı olur.';
    const response = await send('/sms/2/text/advanced', {
      messages: [
        { destinations: [{ to: '411' }], text },
        { destinations: [{ to: '412' }], text, language: { languageCode: 'TR' } },
      ],
    });
    assert.deepEqual(response.messages.map((m) => m.smsCount), [2, 1]);
  });
});
