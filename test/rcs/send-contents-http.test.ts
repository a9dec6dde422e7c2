import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CONTENTS } from './rcs-bodies.js';

type Report = { messageId: string; channel?: string; interactionType?: string; status: { name: string }; error: { id: number; name: string } };

describe('RCS content types and bad input through the real server', () => {
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

  const post = (body: unknown) => server.request('POST', '/rcs/2/messages', { body });
  const reportOf = (messageId: string) =>
    eventually(async () => receiver.posts.flatMap((p) => (p.body as { results: Report[] }).results).find((r) => r.messageId === messageId));

  for (const [type, to] of [
    ['FILE', '41793027101'],
    ['CAROUSEL', '41793027102'],
    ['PROVIDER_TEMPLATE', '41793027103'],
  ] as const) {
    it(`sends ${type}: the documented 200, delivered to the phone with its content, logged and reported`, async () => {
      const content = CONTENTS[type]!();
      const response = await post({
        messages: [{ sender: 'AcmeAgent', destinations: [{ to, messageId: `${type}-1` }], content, webhooks: { delivery: { url: `${receiver.url}/${type}` } } }],
      });
      assert.equal(response.status, 200, response.text);
      const answer = response.json();
      assert.deepEqual(Object.keys(answer).sort(), ['bulkId', 'messages']);
      assert.deepEqual(answer.messages, [
        {
          messageId: `${type}-1`,
          status: { groupId: 1, groupName: 'PENDING', id: 26, name: 'PENDING_ACCEPTED', description: 'Message sent to next instance' },
          destination: to,
          details: {},
        },
      ]);

      const report = await reportOf(`${type}-1`);
      assert.deepEqual([report.status.name, report.interactionType, 'channel' in report], ['DELIVERED_TO_HANDSET', 'SINGLE_MESSAGE', false]);
      const [entry] = (await server.request('GET', `/sandbox/1/phones/${to}/messages`)).json().messages;
      assert.deepEqual([entry.channel, entry.messageId, entry.from, entry.content], ['RCS', `${type}-1`, 'AcmeAgent', content]);
      const [log] = (await server.request('GET', `/rcs/2/logs?messageId=${type}-1`)).json().results;
      assert.deepEqual([log.status.name, log.content], ['DELIVERED_TO_HANDSET', content]);
    });
  }

  it('takes any PROVIDER_TEMPLATE templateId: the sandbox has no template registry', async () => {
    const response = await post({
      messages: [{ destinations: [{ to: '41793027104' }], content: { type: 'PROVIDER_TEMPLATE', templateId: 'never-registered-anywhere' } }],
    });
    assert.equal(response.status, 200, response.text);
  });

  it('reports channel RCS when an mmsFailover was given, which is kept but never sent', async () => {
    const response = await post({
      messages: [
        {
          destinations: [{ to: '41793029021' }],
          content: { type: 'TEXT', text: 'Hi' },
          options: { mmsFailover: { content: { messageSegments: [{ type: 'TEXT', text: 'Hi by MMS' }] } } },
          webhooks: { delivery: { url: `${receiver.url}/mms` } },
        },
      ],
    });
    assert.equal(response.status, 200, response.text);
    const id = response.json().messages[0].messageId;
    const report = await reportOf(id);
    assert.deepEqual([report.channel, report.status.name, report.error.id], ['RCS', 'UNDELIVERABLE_REJECTED_OPERATOR', 7002]);
    assert.deepEqual((await server.request('GET', '/sms/3/logs?destination=41793029021')).json().results, [], 'no MMS, no SMS');
  });

  it('answers a ~10 MB body with a 400 naming the field, not a 5xx', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const response = await post({ messages: [{ destinations: [{ to: '41793027105' }], content: { type: 'TEXT', text: huge } }] });
    assert.equal(response.status, 400, response.text.slice(0, 200));
    assert.deepEqual(response.json().violations.map((v: { property: string }) => v.property), ['messages[0].content.text']);
  });

  it('answers a NUL byte in a field with a 400 naming that field', async () => {
    for (const [body, property] of [
      [{ messages: [{ destinations: [{ to: '41793027106' }], content: { type: 'TEXT', text: 'a\u0000b' } }] }, 'messages[0].content.text'],
      [{ messages: [{ sender: 'Ac\u0000me', destinations: [{ to: '41793027106' }], content: { type: 'TEXT', text: 'a' } }] }, 'messages[0].sender'],
    ] as const) {
      const response = await post(body);
      assert.equal(response.status, 400, response.text);
      assert.equal(response.json().errorCode, 'E400');
      assert.deepEqual(response.json().violations.map((v: { property: string }) => v.property), [property]);
    }
  });
});
