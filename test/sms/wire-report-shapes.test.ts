import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboundMessage, ReportData, StoredMessage } from '../../src/core/store/types.js';
import { reportDataFromMessage } from '../../src/core/store/report-data.js';
import { renderDeliveryReport, renderInbound, renderLegacyReport, renderV3Report } from '../../src/sms/wire/report-shapes.js';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;
const SENT = Date.UTC(2025, 2, 4, 10, 15, 30);
const DONE = SENT + 3120;

const DELIVERED_STATUS = {
  groupId: 3,
  groupName: 'DELIVERED',
  id: 5,
  name: 'DELIVERED_TO_HANDSET',
  description: 'Message delivered to handset',
};
const NO_ERROR = { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false };
const ZERO_PRICE = { pricePerMessage: 0, currency: 'EUR' };

const full: ReportData = {
  bulkId: 'bulk-1',
  messageId: 'msg-1',
  to: '385981234567',
  sender: 'ACME',
  sentAt: SENT,
  doneAt: DONE,
  messageCount: 2,
  mccMnc: '21910',
  callbackData: 'order=42',
  status: { groupId: 3, id: 5 },
  errorId: 0,
  entityId: 'ent',
  applicationId: 'app',
  campaignReferenceId: 'summer',
  api: 'sms3',
};

const minimal: ReportData = {
  bulkId: 'bulk-2',
  messageId: 'msg-2',
  to: '41793026727',
  sentAt: SENT,
  doneAt: DONE,
  messageCount: 1,
  status: { groupId: 2, id: 9 },
  errorId: 1,
  api: 'sms2',
};

describe('v3 delivery report', () => {
  it('carries every field, in the reference order, with platform nested', () => {
    const report = renderV3Report(full);
    assert.deepEqual(report, {
      bulkId: 'bulk-1',
      messageId: 'msg-1',
      to: '385981234567',
      sender: 'ACME',
      sentAt: '2025-03-04T10:15:30.000+0000',
      doneAt: '2025-03-04T10:15:33.120+0000',
      messageCount: 2,
      mccMnc: '21910',
      callbackData: 'order=42',
      price: ZERO_PRICE,
      status: DELIVERED_STATUS,
      error: NO_ERROR,
      platform: { entityId: 'ent', applicationId: 'app' },
      campaignReferenceId: 'summer',
    });
    assert.deepEqual(Object.keys(report), [
      'bulkId', 'messageId', 'to', 'sender', 'sentAt', 'doneAt', 'messageCount', 'mccMnc',
      'callbackData', 'price', 'status', 'error', 'platform', 'campaignReferenceId',
    ]);
  });

  it('omits absent optional fields instead of emitting null, and platform when both ids are absent', () => {
    const report = renderV3Report(minimal);
    assert.deepEqual(Object.keys(report).sort(), [
      'bulkId', 'doneAt', 'error', 'messageCount', 'messageId', 'price', 'sentAt', 'status', 'to',
    ]);
    assert.equal(JSON.stringify(report).includes('null'), false);
    assert.match(report.sentAt, TIME);
    assert.match(report.doneAt, TIME);
    assert.deepEqual(report.error, {
      groupId: 1,
      groupName: 'HANDSET_ERRORS',
      id: 1,
      name: 'EC_UNKNOWN_SUBSCRIBER',
      description: 'Unknown subscriber',
      permanent: true,
    });
    assert.equal(report.status.groupName, 'UNDELIVERABLE');
  });

  it('keeps a platform with only one id', () => {
    assert.deepEqual(renderV3Report({ ...minimal, applicationId: 'default' }).platform, { applicationId: 'default' });
    assert.deepEqual(renderV3Report({ ...minimal, entityId: 'e' }).platform, { entityId: 'e' });
  });
});

describe('legacy delivery report', () => {
  it('uses from, smsCount and flat platform ids', () => {
    assert.deepEqual(renderLegacyReport(full), {
      bulkId: 'bulk-1',
      messageId: 'msg-1',
      to: '385981234567',
      from: 'ACME',
      sentAt: '2025-03-04T10:15:30.000+0000',
      doneAt: '2025-03-04T10:15:33.120+0000',
      smsCount: 2,
      mccMnc: '21910',
      callbackData: 'order=42',
      price: ZERO_PRICE,
      status: DELIVERED_STATUS,
      error: NO_ERROR,
      entityId: 'ent',
      applicationId: 'app',
      campaignReferenceId: 'summer',
    });
  });

  it('omits absent optional fields', () => {
    assert.deepEqual(Object.keys(renderLegacyReport(minimal)).sort(), [
      'bulkId', 'doneAt', 'error', 'messageId', 'price', 'sentAt', 'smsCount', 'status', 'to',
    ]);
  });
});

describe('webhook report shape', () => {
  it('follows the API the message was sent with', () => {
    assert.deepEqual(renderDeliveryReport(full), renderV3Report(full));
    assert.deepEqual(renderDeliveryReport(minimal), renderLegacyReport(minimal));
    assert.ok('smsCount' in renderDeliveryReport({ ...full, api: 'sms2' }));
    assert.ok('messageCount' in renderDeliveryReport({ ...minimal, api: 'sms3' }));
  });

  it('renders no shared mutable objects: changing one report leaves the next intact', () => {
    const first = renderV3Report(full);
    first.status.name = 'CHANGED';
    first.price.pricePerMessage = 9;
    const second = renderV3Report(full);
    assert.equal(second.status.name, 'DELIVERED_TO_HANDSET');
    assert.equal(second.price.pricePerMessage, 0);
  });
});

function storedMessage(overrides: Partial<StoredMessage> = {}): StoredMessage {
  return {
    pk: 7,
    accountId: 'acct',
    messageId: 'msg-9',
    bulkId: 'bulk-9',
    api: 'sms2',
    destination: '41793026727',
    content: { text: 'hi' },
    encoding: 'GSM7',
    messageCount: 1,
    webhook: { intermediateReport: false, notify: true },
    createdAt: SENT - 1000,
    dueAt: SENT - 1000,
    validUntil: SENT + 86_400_000,
    state: 'submitted',
    status: { groupId: 1, id: 7 },
    errorId: 0,
    attempts: 1,
    ...overrides,
  };
}

describe('reportDataFromMessage', () => {
  it('takes sentAt from the submission, doneAt from the change, and copies the message fields', () => {
    const m = storedMessage({
      sentAt: SENT,
      sender: 'ACME',
      mccMnc: '22801',
      callbackData: 'cb',
      entityId: 'e',
      applicationId: 'a',
      campaignReferenceId: 'c',
    });
    assert.deepEqual(reportDataFromMessage(m, { groupId: 3, id: 5 }, 0, DONE), {
      bulkId: 'bulk-9',
      messageId: 'msg-9',
      to: '41793026727',
      sender: 'ACME',
      sentAt: SENT,
      doneAt: DONE,
      messageCount: 1,
      mccMnc: '22801',
      callbackData: 'cb',
      status: { groupId: 3, id: 5 },
      errorId: 0,
      entityId: 'e',
      applicationId: 'a',
      campaignReferenceId: 'c',
      api: 'sms2',
    });
  });

  it('falls back to the acceptance time for a message never handed to a carrier', () => {
    const data = reportDataFromMessage(storedMessage(), { groupId: 5, id: 52 }, 351, DONE);
    assert.equal(data.sentAt, SENT - 1000);
    assert.deepEqual(Object.keys(data).filter((k) => (data as unknown as Record<string, unknown>)[k] === undefined), []);
    assert.equal('sender' in data, false);
  });
});

describe('inbound message', () => {
  const inbound: InboundMessage = {
    accountId: 'acct',
    messageId: '817790313235066447',
    from: '385916242493',
    to: '385921004026',
    text: 'QUIZ Correct answer is Paris',
    cleanText: 'Correct answer is Paris',
    keyword: 'QUIZ',
    receivedAt: SENT,
    smsCount: 1,
    callbackData: 'cb',
    applicationId: 'a',
    entityId: 'e',
    campaignReferenceId: 'c',
  };

  it('carries every field with a zero price and no account id', () => {
    assert.deepEqual(renderInbound(inbound), {
      messageId: '817790313235066447',
      from: '385916242493',
      to: '385921004026',
      text: 'QUIZ Correct answer is Paris',
      cleanText: 'Correct answer is Paris',
      keyword: 'QUIZ',
      receivedAt: '2025-03-04T10:15:30.000+0000',
      smsCount: 1,
      price: ZERO_PRICE,
      callbackData: 'cb',
      applicationId: 'a',
      entityId: 'e',
      campaignReferenceId: 'c',
    });
  });

  it('emits keyword only when there is one', () => {
    const { keyword: _k, callbackData: _c, applicationId: _a, entityId: _e, campaignReferenceId: _r, ...bare } = inbound;
    assert.deepEqual(Object.keys(renderInbound(bare)), [
      'messageId', 'from', 'to', 'text', 'cleanText', 'receivedAt', 'smsCount', 'price',
    ]);
    assert.equal('keyword' in renderInbound({ ...bare, keyword: '' }), false);
  });
});
