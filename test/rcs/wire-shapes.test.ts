import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR, STATUS, ref } from '../../src/core/pipeline/statuses.js';
import { rcsInteractionType } from '../../src/core/store/message-content.js';
import { reportDataFromMessage } from '../../src/core/store/report-data.js';
import type { ReportData, StoredMessage } from '../../src/core/store/types.js';
import { renderRcsDeliveryReport } from '../../src/rcs/wire/delivery-report.js';
import { renderRcsInbound } from '../../src/rcs/wire/inbound-message.js';
import { renderRcsLog } from '../../src/rcs/wire/log.js';
import { renderSeenReport } from '../../src/rcs/wire/seen-report.js';
import { renderDeliveryReport } from '../../src/sms/wire/report-shapes.js';

const CREATED = Date.UTC(2026, 2, 3, 13, 22, 29);
const SENT = CREATED + 1000;
const DONE = CREATED + 6000;
const CONTENT = { type: 'TEXT' as const, text: 'Hello', suggestions: [{ type: 'REPLY', text: 'Yes', postbackData: 'yes' }] };

function rcsMessage(overrides: Partial<StoredMessage> = {}): StoredMessage {
  return {
    pk: 7,
    accountId: 'acct',
    messageId: 'msg-abc123',
    bulkId: 'BULK-123456',
    api: 'rcs2',
    channel: 'RCS',
    sender: 'DemoSender',
    destination: '385911234567',
    content: CONTENT,
    encoding: 'RCS',
    messageCount: 1,
    webhook: { intermediateReport: false, notify: true },
    createdAt: CREATED,
    dueAt: CREATED,
    validUntil: CREATED + 86_400_000,
    state: 'final',
    status: { groupId: 3, id: 5 },
    errorId: 0,
    attempts: 1,
    sentAt: SENT,
    doneAt: DONE,
    ...overrides,
  };
}

const DELIVERED_STATUS = { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' };
const NO_ERROR = { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false };

describe('RCS delivery report', () => {
  it("renders every field of Infobip's RCS report, without channel when the message had no failover", () => {
    const data = reportDataFromMessage(
      rcsMessage({ callbackData: 'custom-user-data', entityId: 'ext-entity-001', applicationId: 'ext-app-001', campaignReferenceId: 'CAMP-2026-Q1' }),
      { groupId: 3, id: 5 },
      0,
      DONE,
    );
    data.mccMnc = '21910';
    assert.deepEqual(renderRcsDeliveryReport(data), {
      bulkId: 'BULK-123456',
      messageId: 'msg-abc123',
      to: '385911234567',
      sender: 'DemoSender',
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: DELIVERED_STATUS,
      error: NO_ERROR,
      conversation: { canInitiate: true, id: null },
      interactionType: 'SINGLE_MESSAGE',
      sentAt: '2026-03-03T13:22:30.000+0000',
      doneAt: '2026-03-03T13:22:35.000+0000',
      messageCount: 1,
      mccMnc: '21910',
      callbackData: 'custom-user-data',
      platform: { entityId: 'ext-entity-001', applicationId: 'ext-app-001' },
      campaignReferenceId: 'CAMP-2026-Q1',
    });
  });

  it('reports the RCS attempt that starts a failover as Infobip does: pending en route, its chat error, channel RCS', () => {
    const message = rcsMessage({ extras: { smsFailover: { text: 'Hello by SMS' } }, content: { type: 'TEXT', text: 'Hi' } });
    const report = renderRcsDeliveryReport(reportDataFromMessage(message, ref(STATUS.PENDING_ENROUTE), ERROR.EC_UNKNOWN_USER.id, DONE));
    assert.equal(report.channel, 'RCS');
    assert.deepEqual(report.status, { groupId: 1, groupName: 'PENDING', id: 7, name: 'PENDING_ENROUTE', description: 'Message sent to next instance' });
    assert.deepEqual(report.error, { groupId: 1, groupName: 'HANDSET_ERRORS', id: 7002, name: 'EC_UNKNOWN_USER', description: 'Unknown user', permanent: true });
    assert.deepEqual(report.conversation, { canInitiate: false, id: null });
    assert.equal(report.interactionType, 'BASIC_MESSAGE');
  });

  it('names the channel whenever a failover was defined, an MMS one included (kept, never sent)', () => {
    const mms = rcsMessage({ extras: { mmsFailover: { channel: 'MMS', validityMs: 1000, segments: [{ type: 'TEXT', text: 'Hi' }] } } });
    const report = renderRcsDeliveryReport(reportDataFromMessage(mms, ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR), ERROR.EC_UNKNOWN_USER.id, DONE));
    assert.deepEqual([report.channel, report.status.name], ['RCS', 'UNDELIVERABLE_REJECTED_OPERATOR']);
    assert.equal('channel' in renderRcsDeliveryReport(reportDataFromMessage(rcsMessage(), ref(STATUS.DELIVERED_TO_HANDSET), 0, DONE)), false);
  });

  it("reports an SMS failover under the RCS message's id, channel SMS, without RCS-only fields", () => {
    const failover = rcsMessage({
      messageId: 'failover-1',
      channel: undefined,
      sender: 'InfoSMS',
      content: { text: 'Hello by SMS' },
      encoding: 'GSM7',
      extras: { failoverOf: 'msg-abc123' },
    });
    const report = renderRcsDeliveryReport(reportDataFromMessage(failover, { groupId: 3, id: 5 }, 0, DONE));
    assert.equal(report.messageId, 'msg-abc123');
    assert.equal(report.channel, 'SMS');
    assert.equal(report.sender, 'InfoSMS');
    assert.equal('conversation' in report, false);
    assert.equal('interactionType' in report, false);
  });

  it('is the shape pushed for messages of the RCS API', () => {
    const data: ReportData = reportDataFromMessage(rcsMessage(), { groupId: 3, id: 5 }, 0, DONE);
    assert.deepEqual(renderDeliveryReport(data), renderRcsDeliveryReport(data));
    assert.ok('interactionType' in renderDeliveryReport(data));
  });
});

describe('RCS interaction type', () => {
  it('is BASIC_MESSAGE for a short plain text, SINGLE_MESSAGE for anything richer', () => {
    assert.equal(rcsInteractionType({ type: 'TEXT', text: 'x'.repeat(160) }), 'BASIC_MESSAGE');
    assert.equal(rcsInteractionType({ type: 'TEXT', text: '🙂'.repeat(160) }), 'BASIC_MESSAGE', 'characters, not UTF-16 units');
    assert.equal(rcsInteractionType({ type: 'TEXT', text: 'x'.repeat(161) }), 'SINGLE_MESSAGE');
    assert.equal(rcsInteractionType({ type: 'TEXT', text: 'Hi', suggestions: [] }), 'BASIC_MESSAGE');
    assert.equal(rcsInteractionType(CONTENT), 'SINGLE_MESSAGE');
    assert.equal(rcsInteractionType({ type: 'FILE', file: { url: 'https://example.com/a.png' } }), 'SINGLE_MESSAGE');
    assert.equal(rcsInteractionType({ type: 'CAROUSEL', cardWidth: 'SMALL', contents: [] }), 'SINGLE_MESSAGE');
  });
});

describe('RCS log', () => {
  it('has the SMS v3 log fields minus mccMnc, with the content echoed whole', () => {
    const content = { type: 'CARD' as const, orientation: 'VERTICAL', alignment: 'LEFT', content: { title: 'Sale', media: { file: { url: 'https://example.com/a.png' }, height: 'TALL' } } };
    const log = renderRcsLog(rcsMessage({ content, mccMnc: '21910', entityId: 'e', campaignReferenceId: 'c' }));
    assert.deepEqual(log, {
      sender: 'DemoSender',
      destination: '385911234567',
      bulkId: 'BULK-123456',
      messageId: 'msg-abc123',
      sentAt: '2026-03-03T13:22:30.000+0000',
      doneAt: '2026-03-03T13:22:35.000+0000',
      messageCount: 1,
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: DELIVERED_STATUS,
      error: NO_ERROR,
      platform: { entityId: 'e' },
      content,
      campaignReferenceId: 'c',
    });
  });

  it('shows a message in flight without doneAt', () => {
    const log = renderRcsLog(rcsMessage({ state: 'submitted', status: { groupId: 1, id: 26 }, doneAt: undefined }));
    assert.equal('doneAt' in log, false);
    assert.equal(log.status.name, 'PENDING_ACCEPTED');
  });
});

describe('RCS seen report', () => {
  it('names the end user as from and the sender as to, with the platform ids flat', () => {
    const seen = renderSeenReport(rcsMessage({ applicationId: 'app', entityId: 'ent', campaignReferenceId: 'camp' }), DONE + 60_000);
    assert.deepEqual(seen, {
      messageId: 'msg-abc123',
      from: '385911234567',
      to: 'DemoSender',
      sentAt: '2026-03-03T13:22:30.000+0000',
      seenAt: '2026-03-03T13:23:35.000+0000',
      applicationId: 'app',
      entityId: 'ent',
      campaignReferenceId: 'camp',
    });
    assert.deepEqual(Object.keys(renderSeenReport(rcsMessage({ sender: undefined }), DONE)), ['messageId', 'from', 'sentAt', 'seenAt']);
  });
});

describe('RCS inbound message', () => {
  const base = { messageId: '123456789012345678', from: '385911234567', to: 'DemoSender', receivedAt: DONE };

  it('carries every field the schema requires, even without a paired message', () => {
    const wire = renderRcsInbound({ ...base, content: { type: 'LOCATION', latitude: 37.7749, longitude: -122.4194 } });
    assert.deepEqual(wire, {
      sender: '385911234567',
      to: 'DemoSender',
      integrationType: 'RCS',
      receivedAt: '2026-03-03T13:22:35.000+0000',
      interactionType: 'BASIC_MESSAGE',
      rcsCount: 1,
      messageId: '123456789012345678',
      message: { type: 'LOCATION', latitude: 37.7749, longitude: -122.4194 },
      price: { pricePerMessage: 0, currency: 'EUR' },
      conversation: { canInitiate: true, id: null },
      platform: {},
    });
  });

  it('reports what the paired message was sent with, and a keyword for a text', () => {
    const wire = renderRcsInbound({
      ...base,
      content: { type: 'TEXT', text: 'START now' },
      keyword: 'START',
      paired: { messageId: 'msg-abc123', callbackData: 'cb', entityId: 'ent', applicationId: 'app', campaignReferenceId: 'camp' },
    });
    assert.equal(wire.pairedMessageId, 'msg-abc123');
    assert.equal(wire.callbackData, 'cb');
    assert.equal(wire.campaignReferenceId, 'camp');
    assert.equal(wire.keyword, 'START');
    assert.deepEqual(wire.platform, { entityId: 'ent', applicationId: 'app' });
    assert.deepEqual(wire.message, { type: 'TEXT', text: 'START now' });
  });
});
