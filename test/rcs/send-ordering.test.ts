import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccepted, assertViolations, startRcsApp, withField, type Json, type RcsApp } from './rcs-app.js';
import { orderedMessage } from './rcs-bodies.js';

/** `options.messageOrdering` (reference §4.1): its rules bind only requests that give it. */

const WHEN = 'when options.messageOrdering.respectOrder is true';
const SAME = `must be the same in every message ${WHEN}`;
const FAILOVER = `must not be given ${WHEN}, except on the first of exactly 2 messages`;
const COUNT = `must contain 2 to 10 messages ${WHEN}`;

const sms = { smsFailover: { text: 'Sorry, plain text' } };
const mms = { mmsFailover: { content: { messageSegments: [{ type: 'TEXT', text: 'Sorry' }] } } };

const messages = (count: number): Json[] => Array.from({ length: count }, (_, i) => orderedMessage(`Step ${i + 1}`));
const ordered = (list: Json[], ordering: Json = {}) => ({ messages: list, options: { messageOrdering: ordering } });

describe('POST /rcs/2/messages: message ordering', () => {
  let rcs: RcsApp;
  before(async () => {
    rcs = await startRcsApp();
  });
  after(() => rcs.close());

  it('without messageOrdering, any number of messages, with failover, differing freely, and no ordering', async () => {
    const list = [...messages(11), orderedMessage('Other', { sender: 'Else', options: sms })];
    const answer = await rcs.send({ messages: list });
    assertAccepted(answer);
    assert.equal(answer.body.messages.length, 12);
    assert.equal('ordering' in answer.body, false);
  });

  it('with respectOrder false, no rule applies and no ordering is kept', async () => {
    const answer = await rcs.send(ordered([orderedMessage('Only', { options: sms })], { respectOrder: false, stopOnFailure: true }));
    assertAccepted(answer);
    assert.equal('ordering' in answer.body, false);
  });

  it('orders 2 to 10 messages without failover; respectOrder and stopOnFailure default to true', async () => {
    for (const count of [2, 10]) {
      const answer = await rcs.send(ordered(messages(count)));
      assertAccepted(answer);
      assert.deepEqual(answer.body.ordering, { stopOnFailure: true });
    }
    const answer = await rcs.send(ordered(messages(3), { respectOrder: true, stopOnFailure: false }));
    assertAccepted(answer);
    assert.deepEqual(answer.body.ordering, { stopOnFailure: false });
  });

  it('refuses fewer than 2 or more than 10 ordered messages', async () => {
    assertViolations(await rcs.send(ordered(messages(1))), [{ property: 'messages', violation: COUNT }]);
    assertViolations(await rcs.send(ordered(messages(11), { respectOrder: true })), [{ property: 'messages', violation: COUNT }]);
  });

  it('orders 2 messages when only the first has failover, which always stops after a failure', async () => {
    for (const failover of [sms, mms]) {
      const answer = await rcs.send(ordered([orderedMessage('First', { options: failover }), orderedMessage('Second')], { stopOnFailure: false }));
      assertAccepted(answer);
      assert.deepEqual(answer.body.ordering, { stopOnFailure: true });
      assert.equal(answer.body.messages[0].failover.channel, 'smsFailover' in failover ? 'SMS' : 'MMS');
    }
  });

  it('refuses failover anywhere else', async () => {
    assertViolations(await rcs.send(ordered([orderedMessage('First'), orderedMessage('Second', { options: sms })])), [
      { property: 'messages[1].options.smsFailover', violation: FAILOVER },
    ]);
    assertViolations(await rcs.send(ordered([orderedMessage('First', { options: sms }), orderedMessage('Second', { options: mms })])), [
      { property: 'messages[1].options.mmsFailover', violation: FAILOVER },
    ]);
    const three = [orderedMessage('First', { options: mms }), orderedMessage('Second'), orderedMessage('Third', { options: sms })];
    assertViolations(await rcs.send(ordered(three)), [
      { property: 'messages[0].options.mmsFailover', violation: FAILOVER },
      { property: 'messages[2].options.smsFailover', violation: FAILOVER },
    ]);
  });

  const differences: Array<[at: string, value: Json, property: string]> = [
    ['sender', 'OtherSender', 'sender'],
    ['destinations', [{ to: '441134960002' }], 'destinations'],
    ['options.platform', { entityId: 'e2' }, 'options.platform'],
    ['options.deliveryTimeWindow', { days: ['MONDAY'] }, 'options.deliveryTimeWindow'],
    ['options.campaignReferenceId', 'spring', 'options.campaignReferenceId'],
    ['webhooks.delivery', { notify: false }, 'webhooks.delivery'],
    ['webhooks.contentType', 'application/xml', 'webhooks.contentType'],
    ['webhooks.callbackData', 'cb', 'webhooks.callbackData'],
    ['webhooks.seen', { url: 'https://hooks.example.com/seen' }, 'webhooks.seen'],
  ];
  for (const [at, value, property] of differences) {
    it(`refuses ordered messages whose ${property} differs, naming the message that differs`, async () => {
      const body = withField(ordered(messages(3)), `messages.2.${at}`, value);
      assertViolations(await rcs.send(body), [{ property: `messages[2].${property}`, violation: SAME }]);
    });
  }

  it('compares what the options mean: defaults, day order and caller message ids do not make messages differ', async () => {
    const window = { days: ['MONDAY', 'FRIDAY'], from: { hour: 8, minute: 0 }, to: { hour: 18, minute: 0 } };
    const list = [
      orderedMessage('First', { destinations: [{ to: '441134960001', messageId: 'a-1' }], options: { deliveryTimeWindow: window } }),
      orderedMessage('Second', {
        destinations: [{ to: '441134960001', messageId: 'a-2' }],
        options: { deliveryTimeWindow: { ...window, days: ['FRIDAY', 'MONDAY', 'FRIDAY'] }, platform: {} },
        webhooks: { delivery: { notify: true, intermediateReport: false, receiveTriggeredFailoverReports: false } },
      }),
    ];
    assertAccepted(await rcs.send(ordered(list)));
  });
});
