import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import type { RcsSendRequest } from '../../src/rcs/read/send-request.js';
import { assertAccepted, DAY, HOUR, NOW, startRcsApp, withField, type RcsApp } from './rcs-app.js';
import { CONTENTS, textBody } from './rcs-bodies.js';

/** What the reader makes of valid bodies: the domain request acceptance will work on. */

const MINUTE = 60_000;
const SEND_AT = NOW + 2 * DAY;

const fullBody = () => ({
  messages: [
    {
      sender: 'DemoSender',
      destinations: [{ to: '441134960001', messageId: 'msg-1', networkId: 5 }, { to: '441134960002', messageId: '' }],
      content: CONTENTS.CAROUSEL!(),
      options: {
        platform: { entityId: 'entity-1', applicationId: 'app-1' },
        validityPeriod: { amount: 2, timeUnit: 'HOURS' },
        deliveryTimeWindow: { days: ['MONDAY', 'TUESDAY', 'MONDAY'], from: { hour: 9, minute: 0 }, to: { hour: 17, minute: 30 } },
        campaignReferenceId: 'spring-sale',
        smsFailover: {
          sender: 'Shop',
          text: 'Half price today',
          validityPeriod: { amount: 90, timeUnit: 'SECONDS' },
          regional: { indiaDlt: { principalEntityId: 'pe-1' } },
        },
      },
      webhooks: {
        delivery: { url: 'https://hooks.example.com/dlr', intermediateReport: true, notify: true, receiveTriggeredFailoverReports: true },
        contentType: 'application/json',
        callbackData: 'order-42',
        seen: { url: 'https://hooks.example.com/seen' },
      },
    },
    {
      destinations: [{ to: '441134960003' }],
      content: CONTENTS.TEXT!(),
      options: {
        validityPeriod: { amount: 72, timeUnit: 'HOURS' },
        mmsFailover: {
          sender: 'Shop',
          content: { title: 'Offer', messageSegments: [{ type: 'TEXT', text: 'Half price' }, { type: 'LINK', contentUrl: 'https://cdn.example.com/a.png', contentId: 'img' }] },
        },
      },
    },
  ],
  options: {
    schedule: { bulkId: 'bulk-7', sendAt: formatInfobipTime(SEND_AT), sendingSpeedLimit: { amount: 10, timeUnit: 'HOUR' } },
    tracking: { shortenUrl: true, trackClicks: false, trackingUrl: 'https://hooks.example.com/clicks' },
  },
});

const expectedRequest = (): RcsSendRequest => ({
  bulkId: 'bulk-7',
  speedLimit: { amount: 10, unitMs: HOUR },
  sendAt: SEND_AT,
  tracking: { shortenUrl: true, trackClicks: false, trackingUrl: 'https://hooks.example.com/clicks' },
  messages: [
    {
      sender: 'DemoSender',
      destinations: [{ to: '441134960001', messageId: 'msg-1' }, { to: '441134960002' }],
      content: CONTENTS.CAROUSEL!() as never,
      validityMs: 2 * HOUR,
      deliveryWindow: { days: ['MONDAY', 'TUESDAY'], from: { hour: 9, minute: 0 }, to: { hour: 17, minute: 30 } },
      campaignReferenceId: 'spring-sale',
      platform: { entityId: 'entity-1', applicationId: 'app-1' },
      failover: { channel: 'SMS', sender: 'Shop', text: 'Half price today', validityMs: 90_000, regional: { indiaDlt: { principalEntityId: 'pe-1' } } },
      webhook: {
        url: 'https://hooks.example.com/dlr',
        intermediateReport: true,
        notify: true,
        receiveTriggeredFailoverReports: true,
        seenUrl: 'https://hooks.example.com/seen',
        contentType: 'application/json',
        callbackData: 'order-42',
      },
    },
    {
      destinations: [{ to: '441134960003' }],
      content: CONTENTS.TEXT!() as never,
      validityMs: 48 * HOUR,
      failover: {
        channel: 'MMS',
        sender: 'Shop',
        validityMs: 48 * HOUR,
        title: 'Offer',
        segments: [{ type: 'TEXT', text: 'Half price' }, { type: 'LINK', contentUrl: 'https://cdn.example.com/a.png', contentId: 'img' }],
      },
      webhook: { intermediateReport: false, notify: true, receiveTriggeredFailoverReports: false },
    },
  ],
});

describe('POST /rcs/2/messages: the domain request', () => {
  let rcs: RcsApp;
  before(async () => {
    rcs = await startRcsApp();
  });
  after(() => rcs.close());

  it('reads a full body: ids, schedule, speed limit, tracking, validity capped at 48 h, failovers, webhooks', async () => {
    const answer = await rcs.send(fullBody());
    assertAccepted(answer);
    assert.deepEqual(answer.body, expectedRequest());
  });

  it('reads a minimal body with the defaults: 48 h validity, reports per subscription, nothing else', async () => {
    const answer = await rcs.send({ messages: [{ destinations: [{ to: '441134960001' }], content: { type: 'TEXT', text: 'Hi' } }] });
    assertAccepted(answer);
    assert.deepEqual(answer.body, {
      messages: [
        {
          destinations: [{ to: '441134960001' }],
          content: { type: 'TEXT', text: 'Hi' },
          validityMs: 48 * HOUR,
          webhook: { intermediateReport: false, notify: true, receiveTriggeredFailoverReports: false },
        },
      ],
    });
  });

  it('converts each validity unit, MINUTES when none is given', async () => {
    const cases: Array<[object, number]> = [
      [{ amount: 45 }, 45 * MINUTE],
      [{ amount: 30, timeUnit: 'SECONDS' }, 30_000],
      [{ amount: 3000, timeUnit: 'MINUTES' }, 48 * HOUR],
    ];
    for (const [validityPeriod, ms] of cases) {
      const answer = await rcs.send(withField(textBody(), 'messages.0.options.validityPeriod', validityPeriod as never));
      assertAccepted(answer);
      assert.equal(answer.body.messages[0].validityMs, ms, JSON.stringify(validityPeriod));
    }
  });

  it('treats an empty bulkId as none and a slightly past sendAt as now', async () => {
    const answer = await rcs.send(withField(textBody(), 'options.schedule', { bulkId: '', sendAt: formatInfobipTime(NOW - HOUR) }));
    assertAccepted(answer);
    assert.equal('bulkId' in answer.body, false);
    assert.equal(answer.body.sendAt, NOW);
  });

  it('keeps a speed limit in minutes when no unit is given', async () => {
    const answer = await rcs.send(withField(textBody(), 'options.schedule.sendingSpeedLimit', { amount: 3 }));
    assertAccepted(answer);
    assert.deepEqual(answer.body.speedLimit, { amount: 3, unitMs: MINUTE });
  });
});
