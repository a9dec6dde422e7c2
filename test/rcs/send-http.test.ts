import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Report = { messageId: string; to: string; channel?: string; status: { groupName: string; name: string }; error: { name: string } };

const CARD = {
  type: 'CARD',
  orientation: 'VERTICAL',
  alignment: 'LEFT',
  content: {
    title: 'Your order shipped',
    description: 'Arrives Thursday',
    media: { file: { url: 'https://example.com/box.png' }, height: 'MEDIUM' },
    suggestions: [{ type: 'OPEN_URL', text: 'Track', postbackData: 'track', url: 'https://example.com/track' }],
  },
  suggestions: [{ type: 'REPLY', text: 'Thanks', postbackData: 'thanks' }],
};

describe('RCS over HTTP: sent, delivered or failed over to SMS, reported, logged and seen', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    server = await startTestServer();
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const send = async (message: Record<string, unknown>) => {
    const response = await server.request('POST', '/rcs/2/messages', { body: { messages: [{ sender: 'AcmeAgent', content: CARD, ...message }] } });
    assert.equal(response.status, 200, response.text);
    return response.json() as { bulkId: string; messages: Array<{ messageId: string; status: { name: string; groupName: string }; destination: string; details: object }> };
  };
  const reportsAt = (path: string, messageId: string, count: number) =>
    eventually(async () => {
      const found = receiver.posts.filter((p) => p.path.endsWith(path)).flatMap((p) => (p.body as { results: Report[] }).results).filter((r) => r.messageId === messageId);
      return found.length >= count ? found : undefined;
    });

  it('accepts a card with suggestions, the phone shows it, its report comes in the RCS shape, and the RCS logs show it', async () => {
    const answer = await send({ destinations: [{ to: '+41 79 302 6001' }], webhooks: { delivery: { url: `${receiver.url}/delivered` }, callbackData: 'order-42' } });
    const [entry] = answer.messages;
    assert.deepEqual([entry!.status.name, entry!.status.groupName, entry!.destination, entry!.details], ['PENDING_ACCEPTED', 'PENDING', '+41 79 302 6001', {}]);
    const [report] = await reportsAt('/delivered', entry!.messageId, 1);
    assert.deepEqual([report!.to, report!.status.name, 'channel' in report!], ['41793026001', 'DELIVERED_TO_HANDSET', false]);
    const phone = (await server.request('GET', '/sandbox/1/phones/41793026001/messages')).json().messages;
    assert.deepEqual([phone[0].channel, phone[0].from, phone[0].content, 'payload' in phone[0]], ['RCS', 'AcmeAgent', CARD, false]);
    const logs = (await server.request('GET', `/rcs/2/logs?messageId=${entry!.messageId}`)).json().results;
    assert.deepEqual([logs.length, logs[0].content], [1, CARD]);
    assert.equal((await server.request('GET', `/sms/3/logs?messageId=${entry!.messageId}`)).json().results.length, 0, 'not an SMS');
  });

  it('fails over to SMS for a phone that cannot take RCS: the SMS shows in SMS logs and reports under the RCS id', async () => {
    const answer = await send({
      destinations: [{ to: '41793029021' }],
      options: { smsFailover: { sender: 'ACME', text: 'Your order shipped: example.com/track' } },
      webhooks: { delivery: { url: `${receiver.url}/final-only` } },
    });
    const id = answer.messages[0]!.messageId;
    const [report] = await reportsAt('/final-only', id, 1);
    assert.deepEqual([report!.channel, report!.status.name], ['SMS', 'DELIVERED_TO_HANDSET']);
    const sms = (await server.request('GET', '/sms/3/logs?destination=41793029021')).json().results;
    assert.deepEqual([sms.length, sms[0].content.text, sms[0].sender], [1, 'Your order shipped: example.com/track', 'ACME']);
    const phone = (await server.request('GET', '/sandbox/1/phones/41793029021/messages')).json().messages;
    assert.deepEqual(phone.map((m: { channel: string }) => m.channel), ['SMS']);
    assert.equal(receiver.posts.filter((p) => p.path.endsWith('/final-only')).length, 1, 'only the final channel reports');

    const every = await send({
      destinations: [{ to: '41793019021' }],
      options: { smsFailover: { text: 'Shipped' } },
      webhooks: { delivery: { url: `${receiver.url}/every`, receiveTriggeredFailoverReports: true } },
    });
    const everyId = every.messages[0]!.messageId;
    const reports = await reportsAt('/every', everyId, 2);
    assert.deepEqual(
      reports.map((r) => [r.channel, r.status.groupName, r.status.name, r.error.name]),
      [
        ['RCS', 'PENDING', 'PENDING_ENROUTE', 'EC_UNKNOWN_USER'],
        ['SMS', 'DELIVERED', 'DELIVERED_TO_HANDSET', 'NO_ERROR'],
      ],
      'the RCS attempt went on to SMS: pending, sent to the next instance, with why',
    );
    const [rcsLog] = (await server.request('GET', `/rcs/2/logs?messageId=${everyId}`)).json().results;
    assert.deepEqual([rcsLog.status.id, rcsLog.error.id], [7, 7002], 'the RCS log tells what its report told');
  });

  it('ends RCS without failover UNDELIVERABLE with EC_UNKNOWN_USER, pullable from /rcs/2/reports only', async () => {
    const answer = await send({ destinations: [{ to: '41793039021' }] });
    const id = answer.messages[0]!.messageId;
    const report = await eventually(async () => (await server.request('GET', `/rcs/2/reports?messageId=${id}`)).json().results[0]);
    assert.deepEqual([report.status.groupName, report.error.id, report.error.name], ['UNDELIVERABLE', 7002, 'EC_UNKNOWN_USER']);
    assert.deepEqual((await server.request('GET', `/sms/3/reports?messageId=${id}`)).json().results, []);
  });

  it('pushes to RCS DELIVERY subscriptions, and a seen report to the seen URL once the user reads it', async () => {
    const subscription = await server.request('POST', '/subscriptions/1/subscription/RCS', {
      body: { subscriptionId: 'rcs-dlr', events: ['DELIVERY'], profile: { profileId: 'RCS', webhook: { notifyUrl: `${receiver.url}/subscribed` } } },
    });
    assert.equal(subscription.status, 201, subscription.text);
    const answer = await send({ destinations: [{ to: '41793026002' }], webhooks: { seen: { url: `${receiver.url}/seen` } } });
    const id = answer.messages[0]!.messageId;
    await reportsAt('/subscribed', id, 1);
    const seen = await server.request('POST', `/sandbox/1/rcs/messages/${id}/seen`);
    assert.equal(seen.status, 200, seen.text);
    const [seenReport] = await reportsAt('/seen', id, 1);
    assert.equal((seenReport as unknown as { to: string; from: string }).from, '41793026002');
  });

  it('sends ordered messages one after another, and stops on failure, cancelling the rest of the chain', async () => {
    const ordered = async (to: string, count: number, options: Record<string, unknown> = {}, first: Record<string, unknown> = {}) => {
      const response = await server.request('POST', '/rcs/2/messages', {
        body: {
          messages: Array.from({ length: count }, (_, i) => ({ sender: 'AcmeAgent', destinations: [{ to }], content: { type: 'TEXT', text: `step ${i + 1}` }, ...(i === 0 ? first : {}) })),
          options: { messageOrdering: { respectOrder: true, ...options } },
        },
      });
      assert.equal(response.status, 200, response.text);
      return (response.json().messages as Array<{ messageId: string }>).map((m) => m.messageId);
    };
    const finalLogs = (ids: string[]) =>
      eventually(async () => {
        const logs = (await server.request('GET', `/rcs/2/logs?messageId=${ids.join(',')}`)).json().results as Array<{
          messageId: string;
          sentAt: string;
          doneAt?: string;
          status: { name: string };
          error: { name: string };
        }>;
        return logs.length === ids.length && logs.every((l) => l.doneAt !== undefined) ? ids.map((id) => logs.find((l) => l.messageId === id)!) : undefined;
      });

    const delivered = await finalLogs(await ordered('41793026010', 3));
    assert.deepEqual(delivered.map((l) => l.status.name), ['DELIVERED_TO_HANDSET', 'DELIVERED_TO_HANDSET', 'DELIVERED_TO_HANDSET']);
    for (let i = 1; i < 3; i++) assert.ok(delivered[i]!.sentAt >= delivered[i - 1]!.doneAt!, 'each left once the one before it ended');
    const phone = (await server.request('GET', '/sandbox/1/phones/41793026010/messages')).json().messages;
    assert.deepEqual(phone.map((m: { text: string }) => m.text).reverse(), ['step 1', 'step 2', 'step 3']);

    const stopped = await finalLogs(await ordered('41793049021', 3));
    assert.deepEqual(
      stopped.map((l) => [l.status.name, l.error.name]),
      [
        ['UNDELIVERABLE_REJECTED_OPERATOR', 'EC_UNKNOWN_USER'],
        ['UNDELIVERABLE_NOT_SENT', 'EC_MESSAGE_CANCELED'],
        ['UNDELIVERABLE_NOT_SENT', 'EC_MESSAGE_CANCELED'],
      ],
    );
    const goingOn = await finalLogs(await ordered('41793059021', 2, { stopOnFailure: false }));
    assert.deepEqual(goingOn.map((l) => l.error.name), ['EC_UNKNOWN_USER', 'EC_UNKNOWN_USER'], 'without stopOnFailure the next is sent anyway');

    const withFailover = await ordered('41793069021', 2, {}, { options: { smsFailover: { text: 'by SMS instead' } } });
    const [, second] = await finalLogs(withFailover);
    assert.equal(second!.status.name, 'UNDELIVERABLE_NOT_SENT', 'the failover is sent instead of the rest');
    const sms = await eventually(async () => (await server.request('GET', '/sms/3/logs?destination=41793069021')).json().results[0]);
    assert.equal(sms.content.text, 'by SMS instead');
  });

  it('refuses a broken bound naming its JSON path in the new envelope', async () => {
    const response = await server.request('POST', '/rcs/2/messages', {
      body: { messages: [{ destinations: [{ to: '41793026003' }], content: { type: 'TEXT', text: 'Hi', suggestions: [{ type: 'REPLY', text: 'x'.repeat(26), postbackData: 'p' }] } }] },
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.json().violations.map((v: { property: string }) => v.property), ['messages[0].content.suggestions[0].text']);
    assert.equal(response.json().errorCode, 'E400');
  });
});
