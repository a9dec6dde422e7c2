import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR, STATUS } from '../../src/core/pipeline/statuses.js';
import { planMessages, type PlanInput } from '../../src/sms/accept/plan-messages.js';
import { prepareText } from '../../src/sms/accept/prepare-content.js';
import { DEFAULT_WEBHOOK, type DestinationInput, type MessageDefinition, type SendRequest } from '../../src/sms/accept/send-request.js';
import { MAX_VALIDITY_MS, SPEED_LIMIT_UNIT_MS } from '../../src/sms/accept/timing.js';

const NOW = Date.UTC(2025, 0, 1, 0, 0); // a Wednesday
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function definition(destinations: DestinationInput[], overrides: Partial<MessageDefinition> = {}): MessageDefinition {
  return { destinations, content: prepareText({ text: 'hello' }), webhook: DEFAULT_WEBHOOK, validityMs: MAX_VALIDITY_MS, ...overrides };
}

function plan(request: Partial<SendRequest> & Pick<SendRequest, 'messages'>, existing: string[] = []): ReturnType<typeof planMessages> {
  const input: PlanInput = { accountId: 'acct', request: { api: 'sms3', ...request }, bulkId: 'bulk', now: NOW, existingIds: new Set(existing) };
  return planMessages(input);
}

const to = (...numbers: string[]): DestinationInput[] => numbers.map((n) => ({ to: n }));

describe('planMessages', () => {
  it('accepts a plain message as queued, due now, valid for 48 hours', () => {
    const [entry] = plan({ messages: [definition(to('41793026727'))] });
    assert.equal(entry!.status, STATUS.PENDING_ACCEPTED);
    assert.match(entry!.messageId, /^[0-9a-f-]{36}$/);
    const message = entry!.message!;
    assert.equal(message.state, 'queued');
    assert.deepEqual(message.status, { groupId: 1, id: 26 });
    assert.equal(message.errorId, 0);
    assert.equal(message.bulkId, 'bulk');
    assert.equal(message.createdAt, NOW);
    assert.equal(message.dueAt, NOW);
    assert.equal(message.validUntil, NOW + 48 * HOUR);
    assert.equal(message.messageId, entry!.messageId);
  });

  it('stores the bare digits but echoes the destination as sent', () => {
    const [entry] = plan({ messages: [definition(to('+41 79-302 6727'))] });
    assert.equal(entry!.to, '+41 79-302 6727');
    assert.equal(entry!.message!.destination, '41793026727');
  });

  it('staggers due times by the sending speed limit across message definitions', () => {
    const entries = plan({
      speedLimit: { amount: 2, unitMs: SPEED_LIMIT_UNIT_MS.MINUTE },
      messages: [definition(to('411', '412', '413')), definition(to('414', '415'))],
    });
    assert.deepEqual(entries.map((e) => e.message!.dueAt - NOW), [0, 0, MINUTE, MINUTE, 2 * MINUTE]);
  });

  it('gives rejected destinations no slot of the speed limit', () => {
    const entries = plan({
      speedLimit: { amount: 1, unitMs: SPEED_LIMIT_UNIT_MS.HOUR },
      messages: [definition(to('411', 'not-a-number', '412'))],
    });
    assert.equal(entries[2]!.message!.dueAt, NOW + HOUR);
  });

  it('schedules at sendAt, moves into the delivery window and counts validity from there', () => {
    const sendAt = NOW + 2 * HOUR;
    const window = { days: ['WEDNESDAY'], from: { hour: 8, minute: 0 }, to: { hour: 17, minute: 0 } };
    const [scheduled, windowed] = plan({
      messages: [
        definition(to('411'), { sendAt, validityMs: 10 * MINUTE }),
        definition(to('412'), { sendAt, deliveryWindow: window, validityMs: 10 * MINUTE }),
      ],
    });
    assert.equal(scheduled!.message!.dueAt, sendAt);
    assert.equal(scheduled!.message!.validUntil, sendAt + 10 * MINUTE);
    assert.equal(windowed!.message!.dueAt, NOW + 8 * HOUR);
    assert.equal(windowed!.message!.validUntil, NOW + 8 * HOUR + 10 * MINUTE);
    assert.deepEqual(windowed!.message!.deliveryWindow, window);
  });

  it('rejects missing and invalid destinations and too-long content, storing them as final', () => {
    const long = prepareText({ text: 'a'.repeat(153 * 25 + 1) });
    const entries = plan({
      messages: [definition([{ to: '' }, { to: '  ' }, { to: 'ALPHA' }, { to: '12' }, { to: '1234567890123456' }]), definition(to('411'), { content: long })],
    });
    assert.deepEqual(
      entries.map((e) => e.status.name),
      ['MISSING_TO', 'MISSING_TO', 'REJECTED_DESTINATION', 'REJECTED_DESTINATION', 'REJECTED_DESTINATION', 'REJECTED_MESSAGE_TOO_LONG'],
    );
    for (const entry of entries) {
      assert.equal(entry.message!.state, 'final');
      assert.deepEqual(entry.message!.status, { groupId: entry.status.groupId, id: entry.status.id });
    }
    assert.equal(entries[2]!.message!.errorId, ERROR.EC_INVALID_DESTINATION_ADDRESS.id);
    assert.equal(entries[5]!.message!.errorId, ERROR.EC_MSG_TEXT_TOO_LONG.id);
    assert.equal(entries[5]!.messageCount, 26);
  });

  it('rejects a caller id repeated in the request or already used, without a row to store', () => {
    const entries = plan(
      { messages: [definition([{ to: '411', messageId: 'a' }, { to: '412', messageId: 'a' }]), definition([{ to: '413', messageId: 'old' }])] },
      ['old'],
    );
    assert.deepEqual(entries.map((e) => e.status.name), ['PENDING_ACCEPTED', 'REJECTED_DUPLICATE_MESSAGE_ID', 'REJECTED_DUPLICATE_MESSAGE_ID']);
    assert.deepEqual(entries.map((e) => e.messageId), ['a', 'a', 'old']);
    assert.ok(entries[0]!.message);
    assert.equal(entries[1]!.message, undefined);
    assert.equal(entries[2]!.message, undefined);
  });

  it('copies the definition fields and adds the destination network id to extras', () => {
    const [entry] = plan({
      api: 'sms2',
      messages: [
        definition([{ to: '411', networkId: 7 }], {
          sender: 'Shop',
          callbackData: 'cb',
          entityId: 'e',
          applicationId: 'app',
          campaignReferenceId: 'camp',
          extras: { flash: true },
        }),
      ],
    });
    const m = entry!.message!;
    assert.deepEqual(
      { api: m.api, sender: m.sender, callbackData: m.callbackData, entityId: m.entityId, applicationId: m.applicationId, campaignReferenceId: m.campaignReferenceId, extras: m.extras },
      { api: 'sms2', sender: 'Shop', callbackData: 'cb', entityId: 'e', applicationId: 'app', campaignReferenceId: 'camp', extras: { flash: true, networkId: 7 } },
    );
    assert.equal('extras' in plan({ messages: [definition(to('411'))] })[0]!.message!, false);
  });
});
