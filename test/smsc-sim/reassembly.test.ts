import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeInboundPart, type InboundPart } from '../../src/network/smpp/inbound-decoding.js';
import { Reassembler } from '../../src/smsc-sim/reassembly.js';

const udh = (...octets: number[]): Buffer => Buffer.from([octets.length, ...octets]);

describe('the simulator reading long messages', () => {
  const part = (from: string, reference: number, total: number, seq: number, body: string): InboundPart =>
    decodeInboundPart({ source_addr: from, destination_addr: 'b', esm_class: 0x40, short_message: Buffer.concat([udh(0x00, 3, reference, total, seq), Buffer.from(body)]) });

  it('passes a single message straight through', () => {
    const reassembler = new Reassembler();
    assert.deepEqual(reassembler.add(decodeInboundPart({ source_addr: 'a', destination_addr: 'b', short_message: Buffer.from('hi') })), { from: 'a', to: 'b', text: 'hi', smsCount: 1 });
    assert.equal(reassembler.pending, 0);
  });

  it('joins parts arriving in any order, once each sequence number has come', () => {
    const reassembler = new Reassembler();
    assert.equal(reassembler.add(part('a', 9, 3, 3, '!')), undefined);
    assert.equal(reassembler.add(part('a', 9, 3, 1, 'hello')), undefined);
    assert.equal(reassembler.add(part('a', 9, 3, 1, 'hello')), undefined, 'a repeated part does not complete the message');
    assert.deepEqual(reassembler.add(part('a', 9, 3, 2, ' world')), { from: 'a', to: 'b', text: 'hello world!', smsCount: 3 });
    assert.equal(reassembler.pending, 0);
  });

  it('keeps messages of different senders with the same reference apart', () => {
    const reassembler = new Reassembler();
    assert.equal(reassembler.add(part('a', 5, 2, 1, 'A1')), undefined);
    assert.equal(reassembler.add(part('c', 5, 2, 2, 'C2')), undefined);
    assert.equal(reassembler.add(part('a', 5, 2, 2, 'A2'))?.text, 'A1A2');
    assert.equal(reassembler.add(part('c', 5, 2, 1, 'C1'))?.text, 'C1C2');
  });

  it('joins SAR parts like UDH parts', () => {
    const reassembler = new Reassembler();
    const sar = { source_addr: 'c', destination_addr: 'd', sar_msg_ref_num: 7, sar_total_segments: 2, sar_segment_seqnum: 2, short_message: Buffer.from('B') };
    assert.equal(reassembler.add(decodeInboundPart(sar)), undefined);
    assert.deepEqual(reassembler.add(decodeInboundPart({ ...sar, sar_segment_seqnum: 1, short_message: Buffer.from('A') })), { from: 'c', to: 'd', text: 'AB', smsCount: 2 });
  });
});
