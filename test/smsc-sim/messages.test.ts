import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESM_CLASS, type Pdu } from '../../src/network/smpp/codec.js';
import { analyzeText, decodeGsm7, decodeUcs2, encodeGsm7, encodeUcs2, packSeptets } from '../../src/sms/encoding/index.js';
import { delivered, eventually, passDeliveryTick, simFixture, type Client } from './sim-fixture.js';

const LONG_GSM = 'The quick brown fox jumps over the lazy dog; {braces} cost two septets each. '.repeat(3).trim();
const LONG_UCS2 = 'Привет! Это длинное сообщение, которое не помещается в одну часть SMS-сообщения. 👋'.repeat(1);
const base = { source_addr_ton: 5, source_addr_npi: 0, source_addr: 'Shop', dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: '41793026727', registered_delivery: 1 };
const gsm = (text: string): Buffer => Buffer.from(encodeGsm7(text));
const ucs2 = (text: string): Buffer => Buffer.from(encodeUcs2(text));

/** Submits a long text part by part as the given concatenation; returns the ids the SMSC gave. */
async function submitLong(c: Client, text: string, concat: 'udh8' | 'udh16' | 'sar', encode: (part: string) => Buffer, dataCoding = 0): Promise<string[]> {
  const parts = analyzeText(text).parts;
  assert.ok(parts.length > 1, 'the text must need several parts');
  const ids: string[] = [];
  for (const [index, part] of parts.entries()) {
    const fields: Record<string, unknown> = { ...base, data_coding: dataCoding };
    if (concat === 'sar') Object.assign(fields, { short_message: encode(part), sar_msg_ref_num: 0x1234, sar_total_segments: parts.length, sar_segment_seqnum: index + 1 });
    else {
      const udh = concat === 'udh8' ? [5, 0x00, 3, 0x42, parts.length, index + 1] : [6, 0x08, 4, 0x12, 0x34, parts.length, index + 1];
      Object.assign(fields, { esm_class: ESM_CLASS.UDHI, short_message: Buffer.concat([Buffer.from(udh), encode(part)]) });
    }
    ids.push(String((await c.request('submit_sm', fields)).message_id));
  }
  return ids;
}

describe('SMSC simulator: what it received', () => {
  const { simulator, bound } = simFixture();

  it('reassembles long messages sent with 8-bit and 16-bit UDH, SAR TLVs and message_payload', async () => {
    const { sim, port, clock } = await simulator();
    const c = await bound(port);
    const udh8 = await submitLong(c, LONG_GSM, 'udh8', gsm);
    const udh16 = await submitLong(c, LONG_UCS2, 'udh16', ucs2, 8);
    const sar = await submitLong(c, LONG_GSM, 'sar', gsm);
    const payload = String((await c.request('submit_sm', { ...base, short_message: Buffer.alloc(0), message_payload: gsm(LONG_GSM) })).message_id);
    const received = sim.received();
    assert.deepEqual(
      received.map((m) => [m.concat, m.parts, m.text, m.messageIds]),
      [
        ['udh8', udh8.length, LONG_GSM, udh8],
        ['udh16', udh16.length, LONG_UCS2, udh16],
        ['sar', sar.length, LONG_GSM, sar],
        ['payload', 1, LONG_GSM, [payload]],
      ],
    );
    const first = received[0]!;
    assert.deepEqual(
      { systemId: first.systemId, from: first.from, fromTon: first.fromTon, fromNpi: first.fromNpi, to: first.to, toTon: first.toTon, toNpi: first.toNpi, esmClass: first.esmClass, dataCoding: first.dataCoding, registeredDelivery: first.registeredDelivery },
      { systemId: 'sb', from: 'Shop', fromTon: 5, fromNpi: 0, to: '41793026727', toTon: 1, toNpi: 1, esmClass: ESM_CLASS.UDHI, dataCoding: 0, registeredDelivery: 1 },
    );
    assert.equal(sim.stats().submits, udh8.length + udh16.length + sar.length + 1);
    passDeliveryTick(clock);
    await eventually(async () => (c.delivered.length === sim.stats().submits ? true : undefined));
    assert.deepEqual(new Set(c.delivered.map((r) => r.receipted_message_id)), new Set([...udh8, ...udh16, ...sar, payload]), 'a receipt per part');
  });

  it('decodes GSM 7-bit unpacked, UCS-2, Latin-1, and binary as hex', async () => {
    const { sim, port } = await simulator();
    const c = await bound(port);
    await c.request('submit_sm', { ...base, data_coding: 0, short_message: gsm('Price: 5€ {ok} @home') });
    await c.request('submit_sm', { ...base, data_coding: 8, short_message: ucs2('Grüße 👋 日本') });
    await c.request('submit_sm', { ...base, data_coding: 3, short_message: Buffer.from('café', 'latin1') });
    await c.request('submit_sm', { ...base, data_coding: 4, short_message: Buffer.from([0xca, 0xfe, 0x01]) });
    assert.deepEqual(
      sim.received().map((m) => [m.dataCoding, m.text, m.concat]),
      [
        [0, 'Price: 5€ {ok} @home', 'none'],
        [8, 'Grüße 👋 日本', 'none'],
        [3, 'café', 'none'],
        [4, 'CAFE01', 'none'],
      ],
    );
    sim.clearReceived();
    assert.equal(sim.received().length, 0);
    assert.equal(sim.stats().submits, 4, 'the counter keeps counting');
  });

  it('decodes packed GSM 7-bit text, after a UDH too', async () => {
    const { sim, port } = await simulator({ gsm7Packing: 'packed' });
    const c = await bound(port);
    await c.request('submit_sm', { ...base, short_message: Buffer.from([0xe8, 0x32, 0x9b, 0xfd, 0x06]) });
    // A UDH of six octets is 48 bits: one fill bit brings the septets back onto a septet boundary.
    await submitLong(c, LONG_GSM, 'udh8', (part) => Buffer.from(packSeptets(encodeGsm7(part), 1)));
    assert.deepEqual(
      sim.received().map((m) => m.text),
      ['hello', LONG_GSM],
    );
  });

  it('counts but does not keep messages when keepMessages is off', async () => {
    const { sim, port } = await simulator({ keepMessages: false });
    const c = await bound(port);
    await c.request('submit_sm', { ...base, short_message: gsm('hi') });
    assert.equal(sim.stats().submits, 1);
    assert.deepEqual(sim.received(), []);
  });
});

describe('SMSC simulator: mobile-originated messages', () => {
  const { simulator, bound } = simFixture();

  it('injects a short message in GSM 7-bit, or UCS-2 when it must', async () => {
    const { sim, port, clock } = await simulator();
    const c = await bound(port, 'receiver');
    await delivered(clock, sim.injectInbound({ from: '41793026727', to: '4412345', text: 'STOP {now}' }));
    await delivered(clock, sim.injectInbound({ from: '41793026727', to: '4412345', text: 'Спасибо' }));
    const [gsmMo, ucs2Mo] = c.delivered;
    assert.deepEqual([gsmMo!.esm_class, gsmMo!.data_coding, gsmMo!.source_addr, gsmMo!.destination_addr], [0, 0, '41793026727', '4412345']);
    assert.equal(decodeGsm7(gsmMo!.short_message as Buffer), 'STOP {now}');
    assert.deepEqual([ucs2Mo!.esm_class, ucs2Mo!.data_coding], [0, 8]);
    assert.equal(decodeUcs2(ucs2Mo!.short_message as Buffer), 'Спасибо');
    assert.equal(sim.stats().inboundSent, 2);
  });

  it('splits a long text with an 8-bit UDH by default, or SAR TLVs, or whole in message_payload', async () => {
    const { sim, port, clock } = await simulator();
    const c = await bound(port);
    const parts = analyzeText(LONG_GSM).parts;
    await delivered(clock, sim.injectInbound({ from: '41793026727', to: '4412345', text: LONG_GSM }));
    const udh = c.delivered.map((p) => p.short_message as Buffer);
    assert.equal(udh.length, parts.length);
    const reference = udh[0]![3]!;
    udh.forEach((part, i) => {
      assert.deepEqual([...part.subarray(0, 6)], [5, 0x00, 3, reference, parts.length, i + 1]);
      assert.equal(decodeGsm7(part.subarray(6)), parts[i]);
    });
    assert.ok(c.delivered.every((p) => p.esm_class === ESM_CLASS.UDHI));

    c.delivered.length = 0;
    await delivered(clock, sim.injectInbound({ from: '41793026727', to: '4412345', text: LONG_UCS2, split: 'sar' }));
    assert.deepEqual(
      c.delivered.map((p) => [p.sar_total_segments, p.sar_segment_seqnum, p.data_coding, p.esm_class]),
      analyzeText(LONG_UCS2).parts.map((_, i, all) => [all.length, i + 1, 8, 0]),
    );
    assert.equal(c.delivered.map((p) => decodeUcs2(p.short_message as Buffer)).join(''), LONG_UCS2);
    assert.equal(new Set(c.delivered.map((p) => p.sar_msg_ref_num)).size, 1);

    c.delivered.length = 0;
    await delivered(clock, sim.injectInbound({ from: '41793026727', to: '4412345', text: LONG_GSM, split: 'payload' }));
    assert.equal(c.delivered.length, 1);
    assert.equal(decodeGsm7(c.delivered[0]!.message_payload as Buffer), LONG_GSM);
  });

  it('sends the parts of a long message on different binds when told to', async () => {
    const { sim, port, clock } = await simulator({ spreadInboundParts: true });
    const text = LONG_GSM.repeat(2);
    const count = analyzeText(text).parts.length;
    assert.ok(count >= 4);
    const [a, b] = [await bound(port), await bound(port)];
    await delivered(clock, sim.injectInbound({ from: '41793026727', to: '4412345', text }));
    const seqOf = (p: Pdu): number => (p.short_message as Buffer)[5]!;
    const byPart = [...a.delivered, ...b.delivered].filter((p) => p.esm_class === ESM_CLASS.UDHI).sort((x, y) => seqOf(x) - seqOf(y));
    assert.equal(byPart.length, count);
    const onA = new Set(a.delivered);
    byPart.forEach((part, i) => {
      if (i > 0) assert.notEqual(onA.has(part), onA.has(byPart[i - 1]!), `part ${i + 1} on another bind than part ${i}`);
    });
  });

  it('sends to the receiver of the system id asked for, and refuses when nobody can receive', async () => {
    const { sim, port, clock } = await simulator();
    await assert.rejects(sim.injectInbound({ from: '1', to: '2', text: 'x' }), /no receiver is bound/);
    await bound(port, 'transmitter', 'a');
    const b = await bound(port, 'transceiver', 'b');
    await delivered(clock, sim.injectInbound({ from: '1', to: '2', text: 'for b', systemId: 'b' }));
    assert.equal(decodeGsm7(b.delivered[0]!.short_message as Buffer), 'for b');
  });
});
