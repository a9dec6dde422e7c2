import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Report = { messageId: string; channel?: string; status: { groupName: string; name: string }; error: { name: string } };

/** The sandbox's suffixes for RCS, as the README's table gives them for SMS. */
const OUTCOMES = [
  ['9001', 'UNDELIVERABLE', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_ABSENT_SUBSCRIBER_SM'],
  ['9002', 'EXPIRED', 'EXPIRED_EXPIRED', 'EC_MESSAGE_EXPIRED'],
  ['9003', 'REJECTED', 'REJECTED_NETWORK', 'EC_OPERATOR_NOT_FOUND'],
] as const;

describe('RCS to the sandbox suffixes, with and without an SMS failover', () => {
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

  const send = async (to: string, message: Record<string, unknown>) => {
    const response = await server.request('POST', '/rcs/2/messages', {
      body: { messages: [{ sender: 'AcmeAgent', destinations: [{ to }], content: { type: 'TEXT', text: 'Your parcel' }, ...message }] },
    });
    assert.equal(response.status, 200, response.text);
    return response.json().messages[0].messageId as string;
  };
  const reportsOf = (messageId: string, count: number) =>
    eventually(async () => {
      const found = receiver.posts.flatMap((p) => (p.body as { results: Report[] }).results).filter((r) => r.messageId === messageId);
      return found.length >= count ? found.map((r) => [r.channel, r.status.groupName, r.status.name, r.error.name]) : undefined;
    });

  for (const [suffix, group, status, error] of OUTCOMES) {
    it(`ends RCS to …${suffix} ${status} (${error}) as an SMS would, and the phone gets nothing`, async () => {
      const to = `4179302${suffix}`;
      const id = await send(to, { webhooks: { delivery: { url: `${receiver.url}/plain` } } });
      assert.deepEqual(await reportsOf(id, 1), [[undefined, group, status, error]]);
      assert.deepEqual((await server.request('GET', `/sandbox/1/phones/${to}/messages`)).json().messages, []);
    });
  }

  it('fails over to SMS when RCS ends undeliverable or expired, not only for a phone without RCS', async () => {
    for (const [suffix, , , error] of OUTCOMES.slice(0, 2)) {
      const to = `4179303${suffix}`;
      const id = await send(to, {
        options: { smsFailover: { sender: 'ACME', text: `Your parcel (${suffix})` } },
        webhooks: { delivery: { url: `${receiver.url}/every`, receiveTriggeredFailoverReports: true } },
      });
      const [rcs, sms] = await reportsOf(id, 2);
      assert.deepEqual(rcs, ['RCS', 'PENDING', 'PENDING_ENROUTE', error], 'the RCS attempt went on to SMS, with why');
      assert.deepEqual(sms!.slice(0, 1), ['SMS']);
      const [log] = (await server.request('GET', `/sms/3/logs?destination=${to}`)).json().results;
      assert.deepEqual([log.sender, log.content.text], ['ACME', `Your parcel (${suffix})`], 'the SMS was made and sent');
    }
  });
});
