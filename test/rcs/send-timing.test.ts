import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { ERROR, STATUS, ref } from '../../src/core/pipeline/statuses.js';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { defaultAccountId } from '../sms/read-fixtures.js';

type Report = { messageId: string; channel?: string; status: { name: string }; error: { name: string } };

const MINUTE = 60_000;
const LATENCY_MS = 1000;

describe('RCS timing on the pipeline: schedule, validity, intermediate reports and notify (ManualClock)', () => {
  const clock = new ManualClock(Date.UTC(2025, 2, 4, 10, 0, 0));
  let server: TestServer;
  let receiver: WebhookReceiver;
  let accountId: string;
  before(async () => {
    server = await startTestServer({ clock, env: { SWITCHBOARD_SANDBOX_LATENCY_MS: String(LATENCY_MS) } });
    receiver = await WebhookReceiver.start();
    accountId = await defaultAccountId(server);
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const send = async (to: string, message: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => {
    const response = await server.request('POST', '/rcs/2/messages', {
      body: { messages: [{ sender: 'AcmeAgent', destinations: [{ to }], content: { type: 'TEXT', text: 'Hi' }, ...message }], options },
    });
    assert.equal(response.status, 200, response.text);
    return response.json().messages[0].messageId as string;
  };
  const stored = (messageId: string) => server.ctx.store.messages.get(accountId, messageId);
  const stateOf = async (messageId: string) => (await stored(messageId))?.state;
  const until = (messageId: string, state: string) => eventually(async () => ((await stateOf(messageId)) === state ? true : undefined));
  /** Moves the clock and lets the dispatcher and the sandbox see it. */
  const advance = (ms: number) => {
    clock.advance(ms);
    server.ctx.engine.nudgeDispatcher();
  };
  const reportsAt = (path: string) => receiver.posts.filter((p) => p.path === path).flatMap((p) => (p.body as { results: Report[] }).results);

  it('holds a scheduled RCS message until sendAt, then delivers it', async () => {
    // A short schedule: moving the clock runs every timer on it (the engine's heartbeats among them).
    const sendAt = clock.now() + 5 * MINUTE;
    const id = await send('41793028001', {}, { schedule: { sendAt: formatInfobipTime(sendAt) } });
    const marker = await send('41793028002');
    await until(marker, 'submitted');
    assert.deepEqual([await stateOf(id), (await stored(id))?.dueAt], ['queued', sendAt], 'not before sendAt');

    advance(5 * MINUTE);
    await until(id, 'submitted');
    advance(LATENCY_MS);
    await until(id, 'final');
    assert.equal((await stored(id))?.sentAt, sendAt);
    const phone = (await server.request('GET', '/sandbox/1/phones/41793028001/messages')).json().messages;
    assert.deepEqual(phone.map((m: { channel: string; messageId: string }) => [m.channel, m.messageId]), [['RCS', id]]);
  });

  it('ends RCS to …9004 (no report) EXPIRED_DLR_UNKNOWN once its validity passes, and that expiry starts its SMS failover', async () => {
    const validity = { validityPeriod: { amount: 10, timeUnit: 'MINUTES' } };
    const plain = await send('41793029004', { options: validity });
    const withFailover = await send('41793019004', {
      options: { ...validity, smsFailover: { text: 'By SMS instead' } },
      webhooks: { delivery: { url: `${receiver.url}/expiry`, receiveTriggeredFailoverReports: true } },
    });
    await until(plain, 'submitted');
    await until(withFailover, 'submitted');
    assert.equal((await stored(plain))?.validUntil, clock.now() + 10 * MINUTE);
    advance(9 * MINUTE);
    assert.equal(await stateOf(plain), 'submitted', 'still waiting within its validity');
    advance(2 * MINUTE);
    await until(plain, 'final');
    const done = await stored(plain);
    assert.deepEqual([done?.status, done?.errorId], [ref(STATUS.EXPIRED_DLR_UNKNOWN), ERROR.EC_VALIDITY_EXPIRED.id]);

    const sms = await eventually(async () => (await server.request('GET', '/sms/3/logs?destination=41793019004')).json().results[0]);
    assert.equal(sms.content.text, 'By SMS instead');
    const [rcsReport] = await eventually(async () => (reportsAt('/hook/expiry').length > 0 ? reportsAt('/hook/expiry') : undefined));
    assert.deepEqual(
      [rcsReport!.messageId, rcsReport!.channel, rcsReport!.status.name, rcsReport!.error.name],
      [withFailover, 'RCS', 'PENDING_ENROUTE', 'EC_VALIDITY_EXPIRED'],
    );
  });

  it('pushes intermediate reports only when asked, and nothing with notify false (the report stays pullable)', async () => {
    const chatty = await send('41793028005', { webhooks: { delivery: { url: `${receiver.url}/chatty`, intermediateReport: true } } });
    const quiet = await send('41793028006', { webhooks: { delivery: { url: `${receiver.url}/quiet` } } });
    const silent = await send('41793028007', { webhooks: { delivery: { url: `${receiver.url}/silent`, notify: false } } });
    for (const id of [chatty, quiet, silent]) await until(id, 'submitted');
    await eventually(async () => (reportsAt('/hook/chatty').length === 1 ? true : undefined));
    advance(LATENCY_MS);
    for (const id of [chatty, quiet, silent]) await until(id, 'final');
    await eventually(async () => (reportsAt('/hook/chatty').length === 2 && reportsAt('/hook/quiet').length === 1 ? true : undefined));

    assert.deepEqual(reportsAt('/hook/chatty').map((r) => r.status.name), ['PENDING_ENROUTE', 'DELIVERED_TO_HANDSET']);
    assert.deepEqual(reportsAt('/hook/quiet').map((r) => r.status.name), ['DELIVERED_TO_HANDSET']);
    const pulled = (await server.request('GET', `/rcs/2/reports?messageId=${silent}`)).json().results;
    assert.deepEqual(pulled.map((r: Report) => r.status.name), ['DELIVERED_TO_HANDSET']);
    assert.deepEqual(reportsAt('/hook/silent'), [], 'notify false pushes nothing');
  });
});
