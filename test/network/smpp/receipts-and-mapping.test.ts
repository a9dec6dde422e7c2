import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR, STATUS, ref } from '../../../src/core/pipeline/statuses.js';
import { STATUS as SMPP } from '../../../src/network/smpp/codec.js';
import { decodeInboundPart } from '../../../src/network/smpp/inbound-decoding.js';
import { canonicalMessageId } from '../../../src/network/smpp/message-ids.js';
import { InboundReassembler } from '../../../src/network/smpp/reassembly.js';
import { isReceipt, parseReceipt } from '../../../src/network/smpp/receipt.js';
import { mapReceiptState, mapSubmitStatus } from '../../../src/network/smpp/status-mapping.js';

const text = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('delivery receipts', () => {
  it('reads the conventional receipt text', () => {
    const fields = { esm_class: 4, short_message: text('id:0123ABCD sub:001 dlvrd:001 submit date:2511221530 done date:2511221531 stat:DELIVRD err:000 text:Hello there') };
    assert.equal(isReceipt(fields), true);
    assert.deepEqual(parseReceipt(fields), {
      id: '0123ABCD',
      stat: 'DELIVRD',
      err: '000',
      intermediate: false,
      submitDate: Date.UTC(2025, 10, 22, 15, 30),
      doneDate: Date.UTC(2025, 10, 22, 15, 31),
    });
  });

  it('reads keys in any case, and text that contains key-like words', () => {
    const receipt = parseReceipt({ esm_class: 4, short_message: text('ID:77 SUB:001 DLVRD:000 STAT:undeliv ERR:027 TEXT:stat:DELIVRD id:1') });
    assert.equal(receipt?.id, '77');
    assert.equal(receipt?.stat, 'UNDELIV');
    assert.equal(receipt?.err, '027');
  });

  it('prefers the TLVs, and works from TLVs alone', () => {
    const receipt = parseReceipt({ esm_class: 4, short_message: Buffer.alloc(0), receipted_message_id: 'abc', message_state: 5, network_error_code: Buffer.from([3, 0, 6]) });
    assert.deepEqual(receipt, { id: 'abc', stat: 'UNDELIV', err: '6', intermediate: false });
    assert.equal(isReceipt({ esm_class: 0, receipted_message_id: 'x' }), true);
    assert.equal(parseReceipt({ esm_class: 0x20, short_message: text('id:5 stat:ENROUTE') })?.intermediate, true);
  });

  it('tells mobile-originated messages from receipts, and ignores receipts without an id', () => {
    assert.equal(isReceipt({ esm_class: 0, short_message: text('hello') }), false);
    assert.equal(isReceipt({ esm_class: 0x40, short_message: text('hello') }), false);
    assert.equal(parseReceipt({ esm_class: 4, short_message: text('garbage') }), undefined);
  });

  it('brings hex and decimal ids, case and leading zeros to one form', () => {
    assert.equal(canonicalMessageId('1A2B3C', 'hex'), canonicalMessageId('1715004', 'decimal'));
    assert.equal(canonicalMessageId('00001a2b3c', 'hex'), '1715004');
    assert.equal(canonicalMessageId('  AbC-1 ', 'text'), 'abc-1');
    assert.equal(canonicalMessageId('not-hex', 'hex'), 'not-hex');
  });
});

describe('status mapping', () => {
  const cases: Array<[string, string | undefined, keyof typeof STATUS, keyof typeof ERROR, boolean]> = [
    ['DELIVRD', '000', 'DELIVERED_TO_HANDSET', 'NO_ERROR', true],
    ['ACCEPTD', undefined, 'PENDING_ACCEPTED', 'NO_ERROR', false],
    ['ENROUTE', '000', 'PENDING_ENROUTE', 'NO_ERROR', false],
    ['UNDELIV', '001', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_SUBSCRIBER', true],
    ['UNDELIV', '027', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_ABSENT_SUBSCRIBER', true],
    ['UNDELIV', '000', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_SM_DELIVERY_FAILURE', true],
    ['UNDELIV', '999', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_ERROR', true],
    ['EXPIRED', '000', 'EXPIRED_EXPIRED', 'EC_MESSAGE_EXPIRED', true],
    ['DELETED', undefined, 'UNDELIVERABLE_NOT_DELIVERED', 'EC_MESSAGE_CANCELED', true],
    ['REJECTD', '000', 'UNDELIVERABLE_REJECTED_OPERATOR', 'EC_SMS_REJECTED_BY_MOBILE_OPERATOR', true],
    ['UNKNOWN', undefined, 'EXPIRED_DLR_UNKNOWN', 'EC_UNKNOWN_ERROR', true],
    ['SKIPPED', undefined, 'UNDELIVERABLE_NOT_SENT', 'EC_NOTSUBMITTEDTOSMPPCHANNEL', true],
    ['WHATEVER', undefined, 'UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_ERROR', true],
  ];
  for (const [stat, err, status, error, final] of cases) {
    it(`maps stat ${stat} err ${err ?? '-'} to ${status} / ${error}`, () => {
      assert.deepEqual(mapReceiptState(stat, err), { status: ref(STATUS[status]), errorId: ERROR[error].id, final });
    });
  }

  it('maps submit_sm_resp command_status to ok, throttling, retry or a final refusal', () => {
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_ROK), { kind: 'ok' });
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_RTHROTTLED), { kind: 'throttled' });
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_RMSGQFUL), { kind: 'throttled' });
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_RSYSERR), { kind: 'retry' });
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_RINVDSTADR), { kind: 'refused', status: ref(STATUS.REJECTED_DESTINATION), errorId: ERROR.EC_INVALID_DESTINATION_ADDRESS.id });
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_RINVSRCADR), { kind: 'refused', status: ref(STATUS.REJECTED_SOURCE), errorId: ERROR.EC_INVALID_SOURCE_ADDRESS.id });
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_RINVMSGLEN), { kind: 'refused', status: ref(STATUS.REJECTED_MESSAGE_TOO_LONG), errorId: ERROR.EC_MSG_TEXT_TOO_LONG.id });
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_RINVDCS), { kind: 'refused', status: ref(STATUS.REJECTED_SYSTEM_ERROR), errorId: ERROR.EC_INVALID_PDU_FORMAT.id });
    assert.deepEqual(mapSubmitStatus(0x4f2), { kind: 'refused', status: ref(STATUS.UNDELIVERABLE_REJECTED_OPERATOR), errorId: ERROR.EC_SMS_REJECTED_BY_MOBILE_OPERATOR.id });
  });
});

describe('inbound decoding', () => {
  it('decodes GSM (with extension characters), Latin-1, UCS-2 and binary', () => {
    assert.equal(decodeInboundPart({ data_coding: 0, short_message: Buffer.from([0x48, 0x69, 0x1b, 0x65]) }).text, 'Hi€');
    assert.equal(decodeInboundPart({ data_coding: 3, short_message: Buffer.from('café', 'latin1') }).text, 'café');
    assert.equal(decodeInboundPart({ data_coding: 8, short_message: Buffer.from([0x04, 0x16]) }).text, 'Ж');
    assert.equal(decodeInboundPart({ data_coding: 4, short_message: Buffer.from([0xca, 0xfe]) }).text, 'CAFE');
  });

  it('reassembles parts in any order by UDH (8 and 16 bit) and by SAR', () => {
    const parts = [
      { source_addr: 'a', destination_addr: 'b', esm_class: 0x40, short_message: Buffer.concat([Buffer.from([5, 0, 3, 9, 2, 2]), Buffer.from(' world')]) },
      { source_addr: 'a', destination_addr: 'b', esm_class: 0x40, short_message: Buffer.concat([Buffer.from([6, 8, 4, 1, 2, 2, 1]), Buffer.from('other')]) },
      { source_addr: 'a', destination_addr: 'b', esm_class: 0x40, short_message: Buffer.concat([Buffer.from([5, 0, 3, 9, 2, 1]), Buffer.from('hello')]) },
    ];
    const reassembler = new InboundReassembler();
    assert.equal(reassembler.add(decodeInboundPart(parts[0]!), 0), undefined);
    assert.equal(reassembler.add(decodeInboundPart(parts[1]!), 0), undefined);
    assert.deepEqual(reassembler.add(decodeInboundPart(parts[2]!), 0), { from: 'a', to: 'b', text: 'hello world', smsCount: 2 });
    const sar = { source_addr: 'c', destination_addr: 'd', sar_msg_ref_num: 7, sar_total_segments: 2, sar_segment_seqnum: 2, short_message: Buffer.from('B') };
    assert.equal(reassembler.add(decodeInboundPart(sar), 0), undefined);
    assert.equal(reassembler.add(decodeInboundPart({ ...sar, sar_segment_seqnum: 1, short_message: Buffer.from('A') }), 0)?.text, 'AB');
    assert.deepEqual(reassembler.expire(10, 5), [{ from: 'a', to: 'b', text: 'other', smsCount: 2 }], 'an incomplete message is handed over when it expires');
    assert.equal(reassembler.pending, 0);
  });
});
