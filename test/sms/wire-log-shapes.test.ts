import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredMessage } from '../../src/core/store/types.js';
import { renderLegacyLog, renderV3Log } from '../../src/sms/wire/log-shapes.js';

const CREATED = Date.UTC(2025, 2, 4, 10, 0, 0);
const SENT = CREATED + 500;
const DONE = CREATED + 2500;

function message(overrides: Partial<StoredMessage> = {}): StoredMessage {
  return {
    pk: 1,
    accountId: 'acct',
    messageId: 'msg-1',
    bulkId: 'bulk-1',
    api: 'sms3',
    destination: '41793026727',
    content: { text: 'This is a sample message', transliteration: 'TURKISH' },
    encoding: 'GSM7',
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

describe('v3 message log', () => {
  it('renders a delivered message with destination, platform and text content', () => {
    const log = renderV3Log(message({ sender: 'ACME', mccMnc: '22801', entityId: 'e', applicationId: 'a', campaignReferenceId: 'c' }));
    assert.deepEqual(log, {
      sender: 'ACME',
      destination: '41793026727',
      bulkId: 'bulk-1',
      messageId: 'msg-1',
      sentAt: '2025-03-04T10:00:00.500+0000',
      doneAt: '2025-03-04T10:00:02.500+0000',
      messageCount: 1,
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
      platform: { entityId: 'e', applicationId: 'a' },
      content: { text: 'This is a sample message' },
      campaignReferenceId: 'c',
      mccMnc: '22801',
    });
  });

  it('shows a message still in flight with its current status, no error and no doneAt', () => {
    const log = renderV3Log(message({ state: 'submitted', status: { groupId: 1, id: 26 }, doneAt: undefined }));
    assert.equal(log.status.name, 'PENDING_ACCEPTED');
    assert.equal(log.error.name, 'NO_ERROR');
    assert.equal('doneAt' in log, false);
    assert.deepEqual(Object.keys(log).sort(), [
      'bulkId', 'content', 'destination', 'error', 'messageCount', 'messageId', 'price', 'sentAt', 'status',
    ]);
  });

  it('dates a message rejected at acceptance from its acceptance', () => {
    const log = renderV3Log(message({ sentAt: undefined, doneAt: undefined, status: { groupId: 5, id: 52 }, errorId: 351 }));
    assert.equal(log.sentAt, '2025-03-04T10:00:00.000+0000');
    assert.equal(log.doneAt, '2025-03-04T10:00:00.000+0000');
    assert.equal(log.status.groupName, 'REJECTED');
  });

  it('renders binary content as hex with its optional coding fields', () => {
    assert.deepEqual(renderV3Log(message({ content: { hex: '0f0a', dataCoding: 8, esmClass: 64 } })).content, {
      hex: '0f0a',
      dataCoding: 8,
      esmClass: 64,
    });
    assert.deepEqual(renderV3Log(message({ content: { hex: '0f0a' } })).content, { hex: '0f0a' });
  });
});

describe('legacy message log', () => {
  it('uses to/from/smsCount, flat platform ids and the text', () => {
    assert.deepEqual(renderLegacyLog(message({ sender: 'ACME', mccMnc: '22801', entityId: 'e', applicationId: 'a', campaignReferenceId: 'c' })), {
      bulkId: 'bulk-1',
      messageId: 'msg-1',
      to: '41793026727',
      from: 'ACME',
      text: 'This is a sample message',
      sentAt: '2025-03-04T10:00:00.500+0000',
      doneAt: '2025-03-04T10:00:02.500+0000',
      smsCount: 1,
      mccMnc: '22801',
      price: { pricePerMessage: 0, currency: 'EUR' },
      status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
      error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
      applicationId: 'a',
      entityId: 'e',
      campaignReferenceId: 'c',
    });
  });

  it('has no text for a binary message', () => {
    const log = renderLegacyLog(message({ content: { hex: '00ff' } }));
    assert.equal('text' in log, false);
    assert.equal('from' in log, false);
  });
});
