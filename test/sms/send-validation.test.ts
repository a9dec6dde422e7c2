import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.js';
import { NEW_ENVELOPE_KEYS } from './send-fixtures.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Body = { [key: string]: Json };
interface Case {
  name: string;
  /** Dotted path (array indexes as numbers) set to `value` in a valid body; undefined removes it. */
  at: string;
  value: Json | undefined;
  property: string;
  violation?: string | RegExp;
}

interface Violation {
  property: string;
  violation: string;
}

function edit(body: Body, at: string, value: Json | undefined): Body {
  const keys = at.split('.');
  let node = body as { [key: string]: Json };
  for (const key of keys.slice(0, -1)) node = node[key] as { [key: string]: Json };
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return body;
}

const NOW = Date.UTC(2025, 2, 4, 10, 0, 0);
const DAY = 86_400_000;

const validV3 = (): Body => ({
  messages: [{ sender: 'Shop', destinations: [{ to: '41793026727' }], content: { text: 'Hello' } }],
});
const validText = (): Body => ({ messages: [{ from: 'Shop', destinations: [{ to: '41793026727' }], text: 'Hello' }] });
const validBinary = (): Body => ({ messages: [{ destinations: [{ to: '41793026727' }], binary: { hex: '0f c2' } }] });

type Time = { [key: string]: Json };
const window = (from?: Time, to?: Time): Body => ({ days: ['MONDAY'], ...(from ? { from } : {}), ...(to ? { to } : {}) });

const V3_CASES: Case[] = [
  { name: 'missing messages', at: 'messages', value: undefined, property: 'messages', violation: 'must not be null' },
  { name: 'empty messages', at: 'messages', value: [], property: 'messages', violation: 'must not be empty' },
  { name: 'messages not an array', at: 'messages', value: 'x', property: 'messages', violation: 'must be array' },
  { name: 'missing destinations', at: 'messages.0.destinations', value: undefined, property: 'messages[0].destinations' },
  { name: 'empty destinations', at: 'messages.0.destinations', value: [], property: 'messages[0].destinations' },
  { name: 'missing to', at: 'messages.0.destinations', value: [{}], property: 'messages[0].destinations[0].to', violation: 'must not be null' },
  { name: 'to as a number', at: 'messages.0.destinations.0.to', value: 41793026727, property: 'messages[0].destinations[0].to', violation: 'must be string' },
  { name: 'to too long', at: 'messages.0.destinations.0.to', value: '1'.repeat(65), property: 'messages[0].destinations[0].to', violation: 'size must be between 0 and 64' },
  { name: 'messageId too long', at: 'messages.0.destinations.0.messageId', value: 'm'.repeat(201), property: 'messages[0].destinations[0].messageId' },
  { name: 'networkId not an integer', at: 'messages.0.destinations.0.networkId', value: 'x', property: 'messages[0].destinations[0].networkId' },
  { name: 'sender not a string', at: 'messages.0.sender', value: { a: 1 }, property: 'messages[0].sender' },
  { name: 'missing content', at: 'messages.0.content', value: undefined, property: 'messages[0].content', violation: 'must not be null' },
  { name: 'text and hex', at: 'messages.0.content', value: { text: 'a', hex: '00' }, property: 'messages[0].content', violation: 'must contain exactly one of text or hex' },
  { name: 'neither text nor hex', at: 'messages.0.content', value: { transliteration: 'GREEK' }, property: 'messages[0].content', violation: 'must contain exactly one of text or hex' },
  { name: 'text not a string', at: 'messages.0.content.text', value: 12, property: 'messages[0].content.text' },
  { name: 'bad hex', at: 'messages.0.content', value: { hex: '0g' }, property: 'messages[0].content.hex' },
  { name: 'odd hex', at: 'messages.0.content', value: { hex: '0f c' }, property: 'messages[0].content.hex' },
  { name: 'esmClass out of range', at: 'messages.0.content', value: { hex: '00', esmClass: 256 }, property: 'messages[0].content.esmClass' },
  { name: 'transliteration enum', at: 'messages.0.content.transliteration', value: 'KLINGON', property: 'messages[0].content.transliteration', violation: /^must be one of \[NONE, TURKISH/ },
  { name: 'languageCode enum', at: 'messages.0.content.language', value: { languageCode: 'XX' }, property: 'messages[0].content.language.languageCode' },
  { name: 'singleShift type', at: 'messages.0.content.language', value: { singleShift: 'yes' }, property: 'messages[0].content.language.singleShift', violation: 'must be boolean' },
  { name: 'entityId too long', at: 'messages.0.options', value: { platform: { entityId: 'e'.repeat(256) } }, property: 'messages[0].options.platform.entityId' },
  { name: 'applicationId too long', at: 'messages.0.options', value: { platform: { applicationId: 'a'.repeat(256) } }, property: 'messages[0].options.platform.applicationId' },
  { name: 'validity without amount', at: 'messages.0.options', value: { validityPeriod: { timeUnit: 'HOURS' } }, property: 'messages[0].options.validityPeriod.amount' },
  { name: 'validity amount 0', at: 'messages.0.options', value: { validityPeriod: { amount: 0 } }, property: 'messages[0].options.validityPeriod.amount', violation: 'must be greater than or equal to 1' },
  { name: 'validity unit enum', at: 'messages.0.options', value: { validityPeriod: { amount: 1, timeUnit: 'DAYS' } }, property: 'messages[0].options.validityPeriod.timeUnit', violation: 'must be one of [SECONDS, MINUTES, HOURS]' },
  { name: 'window without days', at: 'messages.0.options', value: { deliveryTimeWindow: {} }, property: 'messages[0].options.deliveryTimeWindow.days' },
  { name: 'window with no day', at: 'messages.0.options', value: { deliveryTimeWindow: { days: [] } }, property: 'messages[0].options.deliveryTimeWindow.days' },
  { name: 'window day enum', at: 'messages.0.options', value: { deliveryTimeWindow: { days: ['FUNDAY'] } }, property: 'messages[0].options.deliveryTimeWindow.days[0]' },
  { name: 'window hour 24', at: 'messages.0.options', value: { deliveryTimeWindow: window({ hour: 24, minute: 0 }, { hour: 10, minute: 0 }) }, property: 'messages[0].options.deliveryTimeWindow.from.hour', violation: 'must be less than or equal to 23' },
  { name: 'window minute 60', at: 'messages.0.options', value: { deliveryTimeWindow: window({ hour: 8, minute: 0 }, { hour: 10, minute: 60 }) }, property: 'messages[0].options.deliveryTimeWindow.to.minute', violation: 'must be less than or equal to 59' },
  { name: 'window time without minute', at: 'messages.0.options', value: { deliveryTimeWindow: window({ hour: 8 }, { hour: 10, minute: 0 }) }, property: 'messages[0].options.deliveryTimeWindow.from.minute' },
  { name: 'window shorter than 1 h', at: 'messages.0.options', value: { deliveryTimeWindow: window({ hour: 8, minute: 0 }, { hour: 8, minute: 30 }) }, property: 'messages[0].options.deliveryTimeWindow.to', violation: 'must be at least 1 hour after from' },
  { name: 'window with from only', at: 'messages.0.options', value: { deliveryTimeWindow: window({ hour: 8, minute: 0 }) }, property: 'messages[0].options.deliveryTimeWindow.to' },
  { name: 'campaignReferenceId too long', at: 'messages.0.options', value: { campaignReferenceId: 'c'.repeat(256) }, property: 'messages[0].options.campaignReferenceId' },
  { name: 'flash type', at: 'messages.0.options', value: { flash: 'true' }, property: 'messages[0].options.flash' },
  { name: 'indiaDlt without principalEntityId', at: 'messages.0.options', value: { regional: { indiaDlt: {} } }, property: 'messages[0].options.regional.indiaDlt.principalEntityId' },
  { name: 'turkeyIys recipientType enum', at: 'messages.0.options', value: { regional: { turkeyIys: { recipientType: 'OTHER' } } }, property: 'messages[0].options.regional.turkeyIys.recipientType', violation: 'must be one of [BIREYSEL, TACIR]' },
  { name: 'southKorea title too long', at: 'messages.0.options', value: { regional: { southKorea: { title: 't'.repeat(67) } } }, property: 'messages[0].options.regional.southKorea.title' },
  { name: 'webhook ftp URL', at: 'messages.0.webhooks', value: { delivery: { url: 'ftp://example.com/x' } }, property: 'messages[0].webhooks.delivery.url', violation: 'must be an absolute http or https URL' },
  { name: 'webhook relative URL', at: 'messages.0.webhooks', value: { delivery: { url: 'dlr' } }, property: 'messages[0].webhooks.delivery.url' },
  { name: 'webhook URL too long', at: 'messages.0.webhooks', value: { delivery: { url: `https://e.com/${'a'.repeat(2040)}` } }, property: 'messages[0].webhooks.delivery.url' },
  { name: 'notify type', at: 'messages.0.webhooks', value: { delivery: { notify: 'no' } }, property: 'messages[0].webhooks.delivery.notify' },
  { name: 'callbackData too long', at: 'messages.0.webhooks', value: { callbackData: 'c'.repeat(4001) }, property: 'messages[0].webhooks.callbackData', violation: 'size must be between 0 and 4000' },
  { name: 'bulkId too long', at: 'options', value: { schedule: { bulkId: 'b'.repeat(101) } }, property: 'options.schedule.bulkId' },
  { name: 'sendAt not a date', at: 'options', value: { schedule: { sendAt: 'next week' } }, property: 'options.schedule.sendAt' },
  { name: 'sendAt impossible date', at: 'options', value: { schedule: { sendAt: '2025-02-30T10:00:00.000+0000' } }, property: 'options.schedule.sendAt' },
  { name: 'sendAt beyond 180 days', at: 'options', value: { schedule: { sendAt: formatInfobipTime(NOW + 181 * DAY) } }, property: 'options.schedule.sendAt', violation: 'must not be more than 180 days in the future' },
  { name: 'speed limit amount 0', at: 'options', value: { schedule: { sendingSpeedLimit: { amount: 0 } } }, property: 'options.schedule.sendingSpeedLimit.amount' },
  { name: 'speed limit unit enum', at: 'options', value: { schedule: { sendingSpeedLimit: { amount: 5, timeUnit: 'SECOND' } } }, property: 'options.schedule.sendingSpeedLimit.timeUnit', violation: 'must be one of [MINUTE, HOUR, DAY]' },
  { name: 'speed limit amount not integer', at: 'options', value: { schedule: { sendingSpeedLimit: { amount: 1.5 } } }, property: 'options.schedule.sendingSpeedLimit.amount', violation: 'must be integer' },
  { name: 'tracking flag type', at: 'options', value: { tracking: { shortenUrl: 'no' } }, property: 'options.tracking.shortenUrl' },
  { name: 'includeSmsCountInResponse type', at: 'options', value: { includeSmsCountInResponse: 1 }, property: 'options.includeSmsCountInResponse' },
];

const LEGACY_CASES: Case[] = [
  { name: 'missing messages', at: 'messages', value: undefined, property: 'messages', violation: 'must not be null' },
  { name: 'empty destinations', at: 'messages.0.destinations', value: [], property: 'messages[0].destinations', violation: 'must not be empty' },
  { name: 'missing to', at: 'messages.0.destinations', value: [{ messageId: 'x' }], property: 'messages[0].destinations[0].to' },
  { name: 'to too long', at: 'messages.0.destinations.0.to', value: '1'.repeat(65), property: 'messages[0].destinations[0].to' },
  { name: 'text not a string', at: 'messages.0.text', value: ['a'], property: 'messages[0].text', violation: 'must be string' },
  { name: 'languageCode enum', at: 'messages.0.language', value: { languageCode: 'DE' }, property: 'messages[0].language.languageCode' },
  { name: 'transliteration enum', at: 'messages.0.transliteration', value: 'LATIN', property: 'messages[0].transliteration' },
  { name: 'validityPeriod 0', at: 'messages.0.validityPeriod', value: 0, property: 'messages[0].validityPeriod' },
  { name: 'validityPeriod a string', at: 'messages.0.validityPeriod', value: '60', property: 'messages[0].validityPeriod', violation: 'must be integer' },
  { name: 'sendAt not a date', at: 'messages.0.sendAt', value: '2025-13-01T00:00:00Z', property: 'messages[0].sendAt' },
  { name: 'notifyUrl not http', at: 'messages.0.notifyUrl', value: 'javascript:alert(1)', property: 'messages[0].notifyUrl', violation: 'must be an absolute http or https URL' },
  { name: 'entityId over 50', at: 'messages.0.entityId', value: 'e'.repeat(51), property: 'messages[0].entityId' },
  { name: 'callbackData too long', at: 'messages.0.callbackData', value: 'c'.repeat(4001), property: 'messages[0].callbackData' },
  { name: 'window shorter than 1 h', at: 'messages.0.deliveryTimeWindow', value: window({ hour: 23, minute: 30 }, { hour: 0, minute: 0 }), property: 'messages[0].deliveryTimeWindow.to' },
  { name: 'speed limit without amount', at: 'sendingSpeedLimit', value: { timeUnit: 'HOUR' }, property: 'sendingSpeedLimit.amount' },
  { name: 'urlOptions flag type', at: 'urlOptions', value: { trackClicks: 'yes' }, property: 'urlOptions.trackClicks' },
  { name: 'turkeyIys without recipientType', at: 'messages.0.regional', value: { turkeyIys: { brandCode: 1 } }, property: 'messages[0].regional.turkeyIys.recipientType' },
];

const BINARY_CASES: Case[] = [
  { name: 'missing binary', at: 'messages.0.binary', value: undefined, property: 'messages[0].binary' },
  { name: 'missing hex', at: 'messages.0.binary', value: { dataCoding: 8 }, property: 'messages[0].binary.hex' },
  { name: 'bad hex', at: 'messages.0.binary.hex', value: 'xyz', property: 'messages[0].binary.hex' },
  { name: 'dataCoding type', at: 'messages.0.binary.dataCoding', value: '8', property: 'messages[0].binary.dataCoding' },
  { name: 'applicationId over 66', at: 'messages.0.applicationId', value: 'a'.repeat(67), property: 'messages[0].applicationId' },
];

interface LegacyError {
  requestError: { serviceException: { messageId: string; validationErrors?: Record<string, string[]> } };
}

function matches(actual: string | undefined, expected: string | RegExp | undefined): boolean {
  if (expected === undefined) return true;
  return typeof expected === 'string' ? actual === expected : expected.test(actual ?? '');
}

describe('send request validation', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock: new ManualClock(NOW) });
  });
  after(() => server.close());

  for (const c of V3_CASES) {
    it(`POST /sms/3/messages: ${c.name} → 400 naming ${c.property}`, async () => {
      const body = edit(validV3(), c.at, c.value);
      const response = await server.request('POST', '/sms/3/messages', { body });
      assert.equal(response.status, 400, response.text);
      const error = response.json<{ errorCode: string; violations: Violation[] }>();
      assert.deepEqual(Object.keys(error), NEW_ENVELOPE_KEYS);
      assert.equal(error.errorCode, 'E400');
      const found = error.violations.find((v) => v.property === c.property && matches(v.violation, c.violation));
      assert.ok(found, `no violation for ${c.property} in ${response.text}`);
    });
  }

  const legacySuites: Array<[string, () => Body, Case[]]> = [
    ['/sms/2/text/advanced', validText, LEGACY_CASES],
    ['/sms/2/binary/advanced', validBinary, BINARY_CASES],
  ];
  for (const [path, valid, cases] of legacySuites) {
    for (const c of cases) {
      it(`POST ${path}: ${c.name} → 400 naming ${c.property}`, async () => {
        const body = edit(valid(), c.at, c.value);
        const response = await server.request('POST', path, { body });
        assert.equal(response.status, 400, response.text);
        const exception = response.json<LegacyError>().requestError.serviceException;
        assert.equal(exception.messageId, 'BAD_REQUEST');
        const texts: string[] | undefined = exception.validationErrors?.[c.property];
        assert.ok(texts && texts.some((t) => matches(t, c.violation)), `no violation for ${c.property} in ${response.text}`);
      });
    }
  }

  for (const path of ['/sms/3/messages', '/sms/2/text/advanced', '/sms/2/binary/advanced']) {
    const legacy = path !== '/sms/3/messages';
    const check = (response: TestResponse, property = 'body'): void => {
      assert.equal(response.status, 400, response.text);
      if (legacy) assert.ok(response.json<LegacyError>().requestError.serviceException.validationErrors?.[property], response.text);
      else assert.ok(response.json<{ violations: Violation[] }>().violations.some((v) => v.property === property), response.text);
    };

    it(`${path}: malformed JSON, empty body, wrong content type, non-object body → 400`, async () => {
      const json = { 'content-type': 'application/json' };
      check(await server.request('POST', path, { rawBody: '{"messages": [', headers: json }));
      check(await server.request('POST', path, { rawBody: '', headers: json }));
      check(await server.request('POST', path, { rawBody: 'messages=1', headers: { 'content-type': 'text/plain' } }));
      const array = await server.request('POST', path, { body: [] });
      assert.equal(array.status, 400, array.text);
      const nothing = await server.request('POST', path, { body: {} });
      check(nothing, 'messages');
    });
  }

  it('ignores unknown fields', async () => {
    const body = edit(edit(edit(validV3(), 'extra', true), 'messages.0.unknown', { nested: 1 }), 'messages.0.destinations.0.whatever', 'x');
    const response = await server.request('POST', '/sms/3/messages', { body });
    assert.equal(response.status, 200, response.text);
    const legacy = edit(validText(), 'somethingElse', 1);
    assert.equal((await server.request('POST', '/sms/2/text/advanced', { body: legacy })).status, 200);
  });

  it('accepts a sendAt in every supported form', async () => {
    for (const sendAt of ['2025-03-05T10:00:00.000+0000', '2025-03-05T10:00:00.000+00:00', '2025-03-05T10:00:00Z', '2025-03-05T10:00:00.123456', '2025-03-05T10:00']) {
      const response = await server.request('POST', '/sms/3/messages', { body: { ...validV3(), options: { schedule: { sendAt } } } });
      assert.equal(response.status, 200, `${sendAt}: ${response.text}`);
    }
  });
});
