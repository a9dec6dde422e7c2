import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiProblem, type Violation } from '../../src/core/errors/api-problem.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { readLegacyBinaryRequest, readLegacyTextRequest } from '../../src/sms/accept/read-legacy.js';
import { readV3Request } from '../../src/sms/accept/read-v3.js';
import type { SendLegacyBinaryBody, SendLegacyTextBody } from '../../src/sms/schemas/send-legacy.js';
import type { SendV3Body, SendV3Message } from '../../src/sms/schemas/send-v3.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const v3 = (message: Partial<SendV3Message> = {}, options?: SendV3Body['options']): SendV3Body => ({
  messages: [{ destinations: [{ to: '41793026727' }], content: { text: 'hi' }, ...message }],
  ...(options === undefined ? {} : { options }),
});

function violationsOf(read: () => unknown): Violation[] {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof ApiProblem, `expected ApiProblem, got ${String(error)}`);
    assert.equal(error.statusCode, 400);
    return error.violations;
  }
  assert.fail('expected a 400');
}

describe('readV3Request', () => {
  it('requires exactly one of text and hex', () => {
    const both = violationsOf(() => readV3Request(v3({ content: { text: 'a', hex: '00' } }), NOW));
    assert.deepEqual(both, [{ property: 'messages[0].content', violation: 'must contain exactly one of text or hex' }]);
    const neither = violationsOf(() => readV3Request(v3({ content: {} }), NOW));
    assert.deepEqual(neither, [{ property: 'messages[0].content', violation: 'must contain exactly one of text or hex' }]);
  });

  it('names invalid hex content', () => {
    const [v] = violationsOf(() => readV3Request(v3({ content: { hex: '0g 11' } }), NOW));
    assert.equal(v!.property, 'messages[0].content.hex');
  });

  it('counts binary content and keeps its coding', () => {
    const request = readV3Request(v3({ content: { hex: '00'.repeat(141), dataCoding: 4, esmClass: 0 } }), NOW);
    const content = request.messages[0]!.content;
    assert.equal(content.encoding, 'BINARY');
    assert.equal(content.messageCount, 2);
    assert.deepEqual(content.content, { hex: '00'.repeat(141), dataCoding: 4, esmClass: 0 });
  });

  it('transliterates before counting and stores the transliterated text', () => {
    const request = readV3Request(v3({ content: { text: 'Ωμέγα', transliteration: 'GREEK' } }), NOW);
    const content = request.messages[0]!.content;
    assert.equal(content.encoding, 'GSM7');
    assert.deepEqual(content.content, { text: 'ΩMEΓA', transliteration: 'GREEK' });
  });

  it('reads sendAt in every accepted form and bounds it', () => {
    const at = NOW + 3 * HOUR;
    for (const text of [formatInfobipTime(at), '2025-01-01T15:00:00Z', '2025-01-01T16:00:00.000000+01:00', '2025-01-01T15:00:00']) {
      const request = readV3Request(v3({}, { schedule: { sendAt: text } }), NOW);
      assert.equal(request.messages[0]!.sendAt, at, text);
    }
    const slightlyPast = readV3Request(v3({}, { schedule: { sendAt: formatInfobipTime(NOW - 60_000) } }), NOW);
    assert.equal(slightlyPast.messages[0]!.sendAt, NOW);

    const property = 'options.schedule.sendAt';
    assert.equal(violationsOf(() => readV3Request(v3({}, { schedule: { sendAt: 'tomorrow' } }), NOW))[0]!.property, property);
    const far = violationsOf(() => readV3Request(v3({}, { schedule: { sendAt: formatInfobipTime(NOW + 181 * DAY) } }), NOW));
    assert.deepEqual(far, [{ property, violation: 'must not be more than 180 days in the future' }]);
    assert.equal(violationsOf(() => readV3Request(v3({}, { schedule: { sendAt: formatInfobipTime(NOW - 2 * DAY) } }), NOW))[0]!.property, property);
  });

  it('checks the delivery time window', () => {
    const path = 'messages[0].options.deliveryTimeWindow';
    const onlyFrom = violationsOf(() => readV3Request(v3({ options: { deliveryTimeWindow: { days: ['MONDAY'], from: { hour: 8, minute: 0 } } } }), NOW));
    assert.deepEqual(onlyFrom, [{ property: `${path}.to`, violation: 'must be given together with from' }]);
    const short = violationsOf(() =>
      readV3Request(v3({ options: { deliveryTimeWindow: { days: ['MONDAY'], from: { hour: 8, minute: 0 }, to: { hour: 8, minute: 59 } } } }), NOW),
    );
    assert.deepEqual(short, [{ property: `${path}.to`, violation: 'must be at least 1 hour after from' }]);
    const same = violationsOf(() =>
      readV3Request(v3({ options: { deliveryTimeWindow: { days: ['MONDAY'], from: { hour: 8, minute: 0 }, to: { hour: 8, minute: 0 } } } }), NOW),
    );
    assert.equal(same[0]!.property, `${path}.to`);
    const overnight = readV3Request(
      v3({ options: { deliveryTimeWindow: { days: ['MONDAY', 'MONDAY'], from: { hour: 22, minute: 0 }, to: { hour: 6, minute: 0 } } } }),
      NOW,
    );
    assert.deepEqual(overnight.messages[0]!.deliveryWindow, { days: ['MONDAY'], from: { hour: 22, minute: 0 }, to: { hour: 6, minute: 0 } });
  });

  it('accepts only absolute http(s) webhook URLs', () => {
    for (const url of ['ftp://example.com/dlr', 'example.com/dlr', 'http://exa mple.com/', '/relative', 'mailto:a@b.c', '']) {
      const violations = violationsOf(() => readV3Request(v3({ webhooks: { delivery: { url } } }), NOW));
      assert.deepEqual(violations.map((v) => v.property), ['messages[0].webhooks.delivery.url'], url);
    }
    const [ftp] = violationsOf(() => readV3Request(v3({ webhooks: { delivery: { url: 'ftp://example.com/dlr' } } }), NOW));
    assert.equal(ftp!.violation, 'must be an absolute http or https URL');
    const ok = readV3Request(v3({ webhooks: { delivery: { url: 'https://hooks.example.com/dlr', notify: false }, contentType: 'application/json' } }), NOW);
    assert.deepEqual(ok.messages[0]!.webhook, { url: 'https://hooks.example.com/dlr', intermediateReport: false, notify: false, contentType: 'application/json' });
  });

  it('reports the violations of every message at once', () => {
    const body: SendV3Body = {
      messages: [
        { destinations: [{ to: '1' }], content: {} },
        { destinations: [{ to: '1' }], content: { hex: 'zz' }, webhooks: { delivery: { url: 'nope' } } },
      ],
    };
    assert.deepEqual(violationsOf(() => readV3Request(body, NOW)).map((v) => v.property), [
      'messages[0].content',
      'messages[1].content.hex',
      'messages[1].webhooks.delivery.url',
    ]);
  });

  it('reads ids, validity, speed limit and extras', () => {
    const request = readV3Request(
      {
        messages: [
          {
            sender: 'Shop',
            destinations: [{ to: '411', messageId: 'm-1', networkId: 3 }, { to: '412', messageId: '' }],
            // An undocumented key is not stored with the content.
            content: { text: 'hi', language: { languageCode: 'TR', singleShift: true, ...{ shiftEverything: true } } },
            options: {
              platform: { entityId: 'e', applicationId: 'a' },
              validityPeriod: { amount: 3, timeUnit: 'HOURS' },
              campaignReferenceId: 'camp',
              regional: { turkeyIys: { recipientType: 'TACIR' } },
              flash: true,
            },
            webhooks: { callbackData: 'cb' },
          },
          { destinations: [{ to: '413' }], content: { text: 'x' }, options: { validityPeriod: { amount: 72, timeUnit: 'HOURS' } } },
        ],
        options: {
          schedule: { bulkId: 'my-bulk', sendingSpeedLimit: { amount: 10, timeUnit: 'HOUR' } },
          tracking: { shortenUrl: false },
          conversionTracking: { useConversionTracking: true },
        },
      },
      NOW,
    );
    assert.equal(request.api, 'sms3');
    assert.equal(request.bulkId, 'my-bulk');
    assert.deepEqual(request.speedLimit, { amount: 10, unitMs: HOUR });
    const [first, second] = request.messages;
    assert.deepEqual(first!.destinations, [{ to: '411', messageId: 'm-1', networkId: 3 }, { to: '412' }]);
    assert.equal(first!.validityMs, 3 * HOUR);
    assert.equal(second!.validityMs, 48 * HOUR, 'capped at 48 hours');
    assert.deepEqual(
      [first!.sender, first!.entityId, first!.applicationId, first!.campaignReferenceId, first!.callbackData],
      ['Shop', 'e', 'a', 'camp', 'cb'],
    );
    assert.deepEqual(first!.content.content, { text: 'hi', language: { languageCode: 'TR', singleShift: true } });
    assert.deepEqual(first!.extras, {
      urlOptions: { shortenUrl: false },
      conversionTracking: { useConversionTracking: true },
      regional: { turkeyIys: { recipientType: 'TACIR' } },
      flash: true,
    });
    assert.deepEqual(first!.webhook, { intermediateReport: false, notify: true });
  });
});

describe('legacy readers', () => {
  const text = (message: Partial<SendLegacyTextBody['messages'][number]> = {}, body: Partial<SendLegacyTextBody> = {}): SendLegacyTextBody => ({
    messages: [{ destinations: [{ to: '41793026727' }], text: 'hi', ...message }],
    ...body,
  });

  it('reads the legacy field names', () => {
    const request = readLegacyTextRequest(
      text(
        {
          from: 'Shop',
          destinations: [{ to: '411', messageId: 'x'.repeat(250) }],
          validityPeriod: 5000,
          notifyUrl: 'http://hooks.example.com/dlr',
          intermediateReport: true,
          notifyContentType: 'application/json',
          entityId: 'e',
          applicationId: 'a',
          language: { languageCode: 'TR' },
          flash: true,
        },
        { bulkId: 'b', sendingSpeedLimit: { amount: 5 }, urlOptions: { trackClicks: false }, tracking: { track: 'SMS' } },
      ),
      NOW,
    );
    assert.equal(request.api, 'sms2');
    assert.equal(request.bulkId, 'b');
    assert.deepEqual(request.speedLimit, { amount: 5, unitMs: 60_000 });
    const message = request.messages[0]!;
    assert.equal(message.destinations[0]!.messageId, 'x'.repeat(200), 'clipped to 200 characters');
    assert.equal(message.validityMs, 48 * HOUR);
    assert.equal(message.sender, 'Shop');
    assert.deepEqual(message.webhook, { url: 'http://hooks.example.com/dlr', intermediateReport: true, notify: true, contentType: 'application/json' });
    assert.deepEqual(message.content.content, { text: 'hi', language: { languageCode: 'TR', singleShift: true } });
    assert.deepEqual(message.extras, { urlOptions: { trackClicks: false }, tracking: { track: 'SMS' }, flash: true });
  });

  it('uses validity minutes and treats missing text as empty', () => {
    const request = readLegacyTextRequest({ messages: [{ destinations: [{ to: '411' }], validityPeriod: 30 }] }, NOW);
    assert.equal(request.messages[0]!.validityMs, 30 * 60_000);
    assert.deepEqual(request.messages[0]!.content.content, { text: '' });
    assert.equal(request.messages[0]!.content.messageCount, 1);
  });

  it('names legacy fields in violations', () => {
    const violations = violationsOf(() =>
      readLegacyTextRequest(
        text({ sendAt: 'soon', notifyUrl: 'ftp://x', deliveryTimeWindow: { days: ['MONDAY'], to: { hour: 9, minute: 0 } } }),
        NOW,
      ),
    );
    assert.deepEqual(violations.map((v) => v.property), ['messages[0].sendAt', 'messages[0].deliveryTimeWindow.from', 'messages[0].notifyUrl']);
  });

  it('reads per-message sendAt', () => {
    const at = NOW + DAY;
    const request = readLegacyTextRequest(
      { messages: [{ destinations: [{ to: '411' }], sendAt: formatInfobipTime(at) }, { destinations: [{ to: '412' }] }] },
      NOW,
    );
    assert.equal(request.messages[0]!.sendAt, at);
    assert.equal(request.messages[1]!.sendAt, undefined);
  });

  it('reads binary messages and names bad hex', () => {
    const body: SendLegacyBinaryBody = { messages: [{ destinations: [{ to: '411' }], binary: { hex: '0f c2 4a', dataCoding: 8, esmClass: 64 } }] };
    const request = readLegacyBinaryRequest(body, NOW);
    assert.deepEqual(request.messages[0]!.content.content, { hex: '0f c2 4a', dataCoding: 8, esmClass: 64 });
    assert.equal(request.messages[0]!.content.encoding, 'BINARY');
    const bad: SendLegacyBinaryBody = { messages: [{ destinations: [{ to: '411' }], binary: { hex: 'abc' } }] };
    assert.equal(violationsOf(() => readLegacyBinaryRequest(bad, NOW))[0]!.property, 'messages[0].binary.hex');
  });
});
