import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeInboundPart, type InboundPart } from '../../../src/network/smpp/inbound-decoding.js';
import { packSeptets } from '../../../src/sms/encoding/index.js';

const udh = (...octets: number[]): Buffer => Buffer.from([octets.length, ...octets]);
const text = (fields: Record<string, unknown>, packed = false): string => decodeInboundPart(fields, packed).text;

describe('inbound text decoding', () => {
  it('reads data_coding 0 and 1 as unpacked GSM 03.38, extension characters included', () => {
    const septets = Buffer.from([0x48, 0x69, 0x1b, 0x65, 0x1b, 0x3c, 0x00]);
    assert.equal(text({ data_coding: 0, short_message: septets }), 'Hi€[@');
    assert.equal(text({ data_coding: 1, short_message: septets }), 'Hi€[@');
  });

  it('reads packed GSM when configured, or when an octet above 0x7F shows the text is packed', () => {
    const packed = Buffer.from('e8329bfd4697d9ec37', 'hex');
    assert.equal(text({ data_coding: 0, short_message: packed }), 'hellohello');
    assert.equal(text({ data_coding: 0, short_message: Buffer.from(packSeptets([0x41, 0x42])) }, true), 'AB');
  });

  it('reads packed GSM after a UDH from its fill bits, dropping CR padding', () => {
    const header = udh(0x00, 3, 1, 2, 1);
    const body = packSeptets([...Buffer.from('abcdefgh'), 0x0d], 1);
    assert.equal(body.length, 8, 'one fill bit and nine septets end on an octet boundary');
    const part = decodeInboundPart({ esm_class: 0x40, data_coding: 0, short_message: Buffer.concat([header, body]) }, true);
    assert.equal(part.text, 'abcdefgh');
  });

  it('reads Latin-1, UCS-2 (surrogate pairs included) and binary as hex', () => {
    assert.equal(text({ data_coding: 3, short_message: Buffer.from('café', 'latin1') }), 'café');
    assert.equal(text({ data_coding: 8, short_message: Buffer.from([0x04, 0x16, 0xd8, 0x3d, 0xde, 0x00]) }), 'Ж😀');
    assert.equal(text({ data_coding: 4, short_message: Buffer.from([0xca, 0xfe]) }), 'CAFE');
    assert.equal(text({ data_coding: 2, short_message: Buffer.from([0x01]) }), '01');
    assert.equal(text({ data_coding: 6, short_message: Buffer.from([0xb0]) }), 'B0', 'other alphabets stay bytes');
  });

  it('reads the GSM message class and waiting-indication codings by their alphabet', () => {
    const hi = Buffer.from([0x48, 0x69]);
    const ucs2 = Buffer.from([0x04, 0x16]);
    assert.equal(text({ data_coding: 0x10, short_message: hi }), 'Hi');
    assert.equal(text({ data_coding: 0x18, short_message: ucs2 }), 'Ж');
    assert.equal(text({ data_coding: 0xf0, short_message: hi }), 'Hi');
    assert.equal(text({ data_coding: 0xf4, short_message: hi }), '4869');
    assert.equal(text({ data_coding: 0xc8, short_message: hi }), 'Hi');
    assert.equal(text({ data_coding: 0xe0, short_message: ucs2 }), 'Ж');
    assert.equal(text({ data_coding: 0x30, short_message: hi }), '4869', 'compressed text is not decoded');
  });

  it('honours national language shift IEs in the UDH', () => {
    const single = Buffer.concat([udh(0x24, 1, 1), Buffer.from([0x1b, 0x73, 0x1b, 0x67])]);
    assert.equal(text({ esm_class: 0x40, data_coding: 0, short_message: single }), 'şğ');
    const locking = Buffer.concat([udh(0x25, 1, 1), Buffer.from([0x07])]);
    assert.equal(text({ esm_class: 0x40, data_coding: 0, short_message: locking }), 'ı');
  });

  it('reads message_payload when short_message is empty, and gives the addresses as sent', () => {
    const part = decodeInboundPart({ source_addr: '41793026727', destination_addr: '1234', data_coding: 0, short_message: Buffer.alloc(0), message_payload: Buffer.from('Hi') });
    assert.deepEqual(part, { from: '41793026727', to: '1234', text: 'Hi' });
  });

  it('throws on a UDH that does not hold together, so the PDU can be refused', () => {
    assert.throws(() => decodeInboundPart({ esm_class: 0x40, short_message: Buffer.from([5, 0x08, 4, 0x01]) }), /UDH of 6 octets/);
    assert.throws(() => decodeInboundPart({ esm_class: 0x40, short_message: Buffer.from([3, 0x00, 3, 1, 0x41]) }), /runs past/);
    assert.equal(decodeInboundPart({ esm_class: 0x40, short_message: Buffer.from([3, 0x70, 1, 9, 0x41]) }).text, 'A', 'unknown elements are skipped');
  });
});

describe('inbound concatenation info', () => {
  const base = { source_addr: 'a', destination_addr: 'b', esm_class: 0x40, data_coding: 0 };

  it('reads 8-bit and 16-bit reference UDHs and SAR TLVs', () => {
    const eight = decodeInboundPart({ ...base, short_message: Buffer.concat([udh(0x00, 3, 9, 3, 2), Buffer.from('x')]) });
    assert.deepEqual({ ...eight.concat, key: undefined }, { reference: 9, total: 3, seq: 2, key: undefined });
    assert.equal(eight.text, 'x');
    const sixteen = decodeInboundPart({ ...base, short_message: Buffer.concat([udh(0x08, 4, 0x12, 0x34, 2, 1), Buffer.from('y')]) });
    assert.deepEqual({ ...sixteen.concat, key: undefined }, { reference: 0x1234, total: 2, seq: 1, key: undefined });
    const sar = decodeInboundPart({ ...base, esm_class: 0, sar_msg_ref_num: 700, sar_total_segments: 2, sar_segment_seqnum: 2, short_message: Buffer.from('z') });
    assert.deepEqual({ ...sar.concat, key: undefined }, { reference: 700, total: 2, seq: 2, key: undefined });
  });

  it('gives all parts of one message the same key, and other senders or references another', () => {
    const part = (from: string, reference: number, seq: number): InboundPart =>
      decodeInboundPart({ ...base, source_addr: from, short_message: Buffer.concat([udh(0x00, 3, reference, 2, seq), Buffer.from('x')]) });
    assert.equal(part('a', 1, 1).concat?.key, part('a', 1, 2).concat?.key);
    assert.notEqual(part('a', 1, 1).concat?.key, part('c', 1, 1).concat?.key);
    assert.notEqual(part('a', 1, 1).concat?.key, part('a', 2, 1).concat?.key);
  });

  it('treats a one-part "concatenation" or impossible numbering as a message of its own', () => {
    for (const [total, seq] of [[1, 1], [2, 0], [2, 3]] as const) {
      assert.equal(decodeInboundPart({ ...base, short_message: Buffer.concat([udh(0x00, 3, 1, total, seq), Buffer.from('x')]) }).concat, undefined);
    }
  });
});
