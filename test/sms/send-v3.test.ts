import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';
import { accountOf, PENDING_ACCEPTED_WIRE, secondAccount, textMessage } from './send-fixtures.js';

const HOUR = 3_600_000;

interface V3Entry {
  messageId: string;
  status: { name: string; groupName: string };
  destination: string;
  details: { messageCount: number };
}

describe('POST /sms/3/messages', () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 4, 10, 0, 0));
  let server: TestServer;
  let accountId: string;
  before(async () => {
    server = await startTestServer({ clock });
    accountId = await accountOf(server);
  });
  after(() => server.close());

  const send = async (body: unknown, key?: string): Promise<{ bulkId: string; messages: V3Entry[] }> => {
    const response = await server.request('POST', '/sms/3/messages', { body, ...(key === undefined ? {} : { key }) });
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    return response.json();
  };

  it('accepts a text message and answers in the v3 shape', async () => {
    const response = await send({ messages: [textMessage('41793026727')] });
    assert.match(response.bulkId, /^[0-9a-f-]{36}$/);
    assert.equal(response.messages.length, 1);
    const [entry] = response.messages;
    assert.deepEqual(entry, {
      messageId: entry!.messageId,
      status: PENDING_ACCEPTED_WIRE,
      destination: '41793026727',
      details: { messageCount: 1 },
    });
    const stored = await server.ctx.store.messages.get(accountId, entry!.messageId);
    assert.equal(stored?.bulkId, response.bulkId);
    assert.equal(stored?.api, 'sms3');
    assert.equal(stored?.encoding, 'GSM7');
  });

  it('counts parts of GSM7, Unicode and binary content', async () => {
    const response = await send({
      messages: [
        textMessage('411', 'a'.repeat(160)),
        textMessage('412', 'a'.repeat(161)),
        textMessage('413', 'ж'.repeat(70)),
        textMessage('414', 'ж'.repeat(71)),
        { destinations: [{ to: '415' }], content: { hex: '00 '.repeat(141).trim() } },
      ],
    });
    assert.deepEqual(response.messages.map((m) => m.details.messageCount), [1, 2, 1, 2, 2]);
    const unicode = await server.ctx.store.messages.get(accountId, response.messages[2]!.messageId);
    assert.equal(unicode?.encoding, 'UCS2');
    const binary = await server.ctx.store.messages.get(accountId, response.messages[4]!.messageId);
    assert.equal(binary?.encoding, 'BINARY');
  });

  it('rejects a 26-part message with REJECTED_MESSAGE_TOO_LONG in a 200', async () => {
    const response = await send({ messages: [textMessage('41793026727', 'a'.repeat(153 * 25 + 1))] });
    const [entry] = response.messages;
    assert.equal(entry!.status.name, 'REJECTED_MESSAGE_TOO_LONG');
    assert.equal(entry!.status.groupName, 'REJECTED');
    assert.equal(entry!.details.messageCount, 26);
    const stored = await server.ctx.store.messages.get(accountId, entry!.messageId);
    assert.equal(stored?.state, 'final');
    assert.equal(stored?.errorId, 355);
  });

  it('answers in request order with per-destination statuses and echoes the caller bulk id', async () => {
    const response = await send({
      messages: [textMessage(['411', '']), textMessage(['ALPHA', '+41 79 302 67 27'])],
      options: { schedule: { bulkId: 'bulk-echo' } },
    });
    assert.equal(response.bulkId, 'bulk-echo');
    assert.deepEqual(
      response.messages.map((m) => [m.destination, m.status.name]),
      [
        ['411', 'PENDING_ACCEPTED'],
        ['', 'MISSING_TO'],
        ['ALPHA', 'REJECTED_DESTINATION'],
        ['+41 79 302 67 27', 'PENDING_ACCEPTED'],
      ],
    );
  });

  it('rejects a caller messageId repeated in the request or used before', async () => {
    const first = await send({
      messages: [{ destinations: [{ to: '411', messageId: 'dup-1' }, { to: '412', messageId: 'dup-1' }], content: { text: 'x' } }],
    });
    assert.deepEqual(first.messages.map((m) => [m.messageId, m.status.name]), [
      ['dup-1', 'PENDING_ACCEPTED'],
      ['dup-1', 'REJECTED_DUPLICATE_MESSAGE_ID'],
    ]);
    const second = await send({ messages: [{ destinations: [{ to: '413', messageId: 'dup-1' }], content: { text: 'y' } }] });
    assert.equal(second.messages[0]!.status.name, 'REJECTED_DUPLICATE_MESSAGE_ID');
    assert.equal((await server.ctx.store.messages.get(accountId, 'dup-1'))?.destination, '411');
  });

  it('detects duplicate ids per account only', async () => {
    const other = await secondAccount(server.ctx.store, clock.now());
    await send({ messages: [{ destinations: [{ to: '411', messageId: 'per-account' }], content: { text: 'x' } }] });
    const response = await send({ messages: [{ destinations: [{ to: '412', messageId: 'per-account' }], content: { text: 'x' } }] }, other.key);
    assert.equal(response.messages[0]!.status.name, 'PENDING_ACCEPTED');
    assert.equal((await server.ctx.store.messages.get(other.accountId, 'per-account'))?.destination, '412');
  });

  it('staggers due times by the sending speed limit', async () => {
    const now = clock.now();
    const response = await send({
      messages: [textMessage(['411', '412']), textMessage('413')],
      options: { schedule: { sendAt: formatInfobipTime(now + 24 * HOUR), sendingSpeedLimit: { amount: 2, timeUnit: 'HOUR' } } },
    });
    const due = [];
    for (const entry of response.messages) due.push((await server.ctx.store.messages.get(accountId, entry.messageId))!.dueAt - now);
    assert.deepEqual(due, [24 * HOUR, 24 * HOUR, 25 * HOUR]);
  });

  it('stores the request options the pipeline and reports need', async () => {
    const response = await send({
      messages: [
        {
          sender: 'Shop',
          destinations: [{ to: '41793026727', messageId: 'opts-1', networkId: 12 }],
          content: { text: 'hi' },
          options: {
            platform: { entityId: 'ent', applicationId: 'app' },
            validityPeriod: { amount: 30, timeUnit: 'MINUTES' },
            campaignReferenceId: 'camp',
            flash: true,
            deliveryTimeWindow: { days: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] },
          },
          webhooks: { delivery: { url: 'https://hooks.example.com/dlr', intermediateReport: true }, contentType: 'application/json', callbackData: 'cb' },
        },
      ],
      options: { tracking: { shortenUrl: false } },
      unknownField: 'ignored',
    });
    assert.equal(response.messages[0]!.messageId, 'opts-1');
    const stored = await server.ctx.store.messages.get(accountId, 'opts-1');
    assert.ok(stored);
    assert.deepEqual(
      {
        sender: stored.sender,
        entityId: stored.entityId,
        applicationId: stored.applicationId,
        campaignReferenceId: stored.campaignReferenceId,
        callbackData: stored.callbackData,
        webhook: stored.webhook,
        extras: stored.extras,
        validFor: stored.validUntil - stored.dueAt,
      },
      {
        sender: 'Shop',
        entityId: 'ent',
        applicationId: 'app',
        campaignReferenceId: 'camp',
        callbackData: 'cb',
        webhook: { url: 'https://hooks.example.com/dlr', intermediateReport: true, notify: true, contentType: 'application/json' },
        extras: { urlOptions: { shortenUrl: false }, flash: true, networkId: 12 },
        validFor: 30 * 60_000,
      },
    );
  });

  it('does not send a scheduled message before sendAt', async () => {
    const sendAt = clock.now() + HOUR;
    const response = await send({
      messages: [textMessage('41793026701', 'later', { webhooks: { delivery: { notify: false } } })],
      options: { schedule: { sendAt: formatInfobipTime(sendAt) } },
    });
    const immediate = await send({ messages: [textMessage('41793026702', 'now', { webhooks: { delivery: { notify: false } } })] });
    const scheduledId = response.messages[0]!.messageId;
    const immediateId = immediate.messages[0]!.messageId;

    // Once the immediate message has left the queue, the dispatcher has had its chance at the other.
    await eventually(async () => ((await server.ctx.store.messages.get(accountId, immediateId))?.state !== 'queued' ? true : undefined));
    const waiting = await server.ctx.store.messages.get(accountId, scheduledId);
    assert.equal(waiting?.state, 'queued');
    assert.equal(waiting?.dueAt, sendAt);
    assert.deepEqual(waiting?.status, { groupId: 1, id: 26 });

    clock.set(sendAt);
    server.ctx.engine.nudgeDispatcher();
    await eventually(async () => ((await server.ctx.store.messages.get(accountId, scheduledId))?.state !== 'queued' ? true : undefined));
  });
});
