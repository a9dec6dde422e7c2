import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutboundSms } from '../../../src/network/carrier.js';
import { destinationAddress, sourceAddress } from '../../../src/network/smpp/addressing.js';
import { decodeInboundPart } from '../../../src/network/smpp/inbound-decoding.js';
import { InboundReassembler } from '../../../src/network/smpp/reassembly.js';
import type { LongMessageMode } from '../../../src/network/smpp/smsc-options.js';
import { encodeSubmitParts, fillBits, type EncodingOptions, type SubmitPart } from '../../../src/network/smpp/submit-encoding.js';
import { analyzeText } from '../../../src/sms/encoding/index.js';

function sms(content: OutboundSms['content'], flash = false): OutboundSms {
  return { accountId: 'a', pk: 1, messageId: 'm', destination: '41793026727', content, encoding: 'GSM7', messageCount: 1, validUntil: 0, flash, attempts: 1 };
}

const options = (longMessages: LongMessageMode, gsm7Packing: 'unpacked' | 'packed' = 'unpacked'): EncodingOptions => ({ longMessages, gsm7Packing, gsm7DataCoding: 0 });

/** What a handset (or the SMSC) would read back from the parts. */
function readBack(parts: SubmitPart[], packed = false): { text: string; count: number } {
  const reassembler = new InboundReassembler();
  for (const part of parts) {
    const fields = { source_addr: 'x', destination_addr: 'y', esm_class: part.esmClass, data_coding: part.dataCoding, short_message: part.shortMessage, ...part.tlvs };
    const done = reassembler.add(decodeInboundPart(fields, packed), 0);
    if (done) return { text: done.text, count: done.smsCount };
  }
  throw new Error('the parts did not complete a message');
}

describe('submit_sm encoding', () => {
  const gsm = `${'Prices in € and [brackets] ~ '.repeat(10)}end`;
  const ucs = `${'Привет 👋 мир! '.repeat(10)}конец`;

  for (const mode of ['udh8', 'udh16', 'sar', 'payload'] as const) {
    for (const packing of ['unpacked', 'packed'] as const) {
      it(`round-trips long GSM-7 and UCS-2 text by ${mode} (${packing})`, () => {
        for (const text of [gsm, ucs]) {
          const parts = encodeSubmitParts(sms({ text }), options(mode, packing), 300);
          const back = readBack(parts, packing === 'packed');
          assert.equal(back.text, text);
          if (mode === 'payload') assert.equal(parts.length, 1);
          else assert.ok(parts.length > 1);
        }
      });
    }
  }

  it('cuts parts where the API counted them for udh8 and sar, never inside an escape or a surrogate pair', () => {
    for (const text of [gsm, ucs]) {
      const expected = analyzeText(text).parts;
      for (const mode of ['udh8', 'sar'] as const) {
        const parts = encodeSubmitParts(sms({ text }), options(mode), 7);
        assert.equal(parts.length, expected.length);
        parts.forEach((part, i) => {
          const fields = { esm_class: part.esmClass, data_coding: part.dataCoding, short_message: part.shortMessage, ...part.tlvs };
          assert.equal(decodeInboundPart(fields).text, expected[i]);
        });
      }
    }
  });

  it('writes the concatenation headers and TLVs of each mode', () => {
    const total = analyzeText(gsm).messageCount;
    const [udh8] = encodeSubmitParts(sms({ text: gsm }), options('udh8'), 0x1234);
    assert.deepEqual([...udh8!.shortMessage.subarray(0, 6)], [5, 0x00, 3, 0x34, total, 1]);
    assert.equal(udh8!.esmClass, 0x40);
    const udh16 = encodeSubmitParts(sms({ text: gsm }), options('udh16'), 0x1234);
    assert.deepEqual([...udh16[0]!.shortMessage.subarray(0, 7)], [6, 0x08, 4, 0x12, 0x34, udh16.length, 1]);
    const sar = encodeSubmitParts(sms({ text: gsm }), options('sar'), 0x1234);
    assert.deepEqual(sar[1]!.tlvs, { sar_msg_ref_num: 0x1234, sar_total_segments: sar.length, sar_segment_seqnum: 2 });
    assert.equal(sar[1]!.esmClass, 0);
    const [payload] = encodeSubmitParts(sms({ text: gsm }), options('payload'), 1);
    assert.equal(payload!.shortMessage.length, 0);
    assert.ok(Buffer.isBuffer(payload!.tlvs.message_payload));
  });

  it('sends a short text without any header, GSM as data_coding 0 and UCS-2 as 8; flash as class 0', () => {
    const [plain] = encodeSubmitParts(sms({ text: 'Hello' }), options('udh8'), 1);
    assert.deepEqual(plain, { shortMessage: Buffer.from('Hello'), dataCoding: 0, esmClass: 0, tlvs: {} });
    assert.equal(encodeSubmitParts(sms({ text: 'Ж' }), options('udh8'), 1)[0]!.dataCoding, 8);
    assert.equal(encodeSubmitParts(sms({ text: 'Hi' }, true), options('udh8'), 1)[0]!.dataCoding, 0x10);
    assert.equal(encodeSubmitParts(sms({ text: 'Ж' }, true), options('udh8'), 1)[0]!.dataCoding, 0x18);
  });

  it('packs septets after the UDH on a septet boundary', () => {
    assert.equal(fillBits(6), 1);
    assert.equal(fillBits(7), 0);
    const [packed] = encodeSubmitParts(sms({ text: 'hellohello' }), options('udh8', 'packed'), 1);
    assert.equal(packed!.shortMessage.length, Math.ceil((10 * 7) / 8));
  });

  it('adds the national language shift to the UDH when the API chose a national table', () => {
    const text = 'Çok güzel ğ ş ı'.repeat(3);
    const [part] = encodeSubmitParts(sms({ text, language: { languageCode: 'TR', singleShift: true } }), options('udh8'), 1);
    assert.equal(part!.esmClass, 0x40);
    assert.ok(part!.shortMessage.includes(Buffer.from([0x24, 1, 1])), 'single shift IE for Turkish');
    assert.equal(readBack([part!]).text, text);
  });

  it('sends binary content as given, and splits it with a UDH only when longer than one part', () => {
    const [small] = encodeSubmitParts(sms({ hex: '0102 03', dataCoding: 4, esmClass: 0 }), options('udh8'), 1);
    assert.deepEqual(small, { shortMessage: Buffer.from([1, 2, 3]), dataCoding: 4, esmClass: 0, tlvs: {} });
    const withUdh = `050003010201${'aa'.repeat(100)}`;
    const [own] = encodeSubmitParts(sms({ hex: withUdh, esmClass: 0x40 }), options('udh8'), 1);
    assert.equal(own!.shortMessage.toString('hex'), withUdh);
    const long = encodeSubmitParts(sms({ hex: 'ab'.repeat(300), dataCoding: 4 }), options('udh8'), 9);
    assert.equal(long.length, 3);
    assert.deepEqual([...long[2]!.shortMessage.subarray(0, 6)], [5, 0, 3, 9, 3, 3]);
  });
});

describe('SMPP addresses', () => {
  it('chooses TON/NPI from the sender, unless the SMSC fixes them', () => {
    assert.deepEqual(sourceAddress('InfoSMS', {}), { addr: 'InfoSMS', ton: 5, npi: 0 });
    assert.deepEqual(sourceAddress('+41793026727', {}), { addr: '41793026727', ton: 1, npi: 1 });
    assert.deepEqual(sourceAddress('12345', {}), { addr: '12345', ton: 3, npi: 0 });
    assert.deepEqual(sourceAddress(undefined, {}), { addr: '', ton: 0, npi: 0 });
    assert.deepEqual(sourceAddress('12345', { ton: 6, npi: 9 }), { addr: '12345', ton: 6, npi: 9 });
    assert.deepEqual(destinationAddress('+41793026727', {}), { addr: '41793026727', ton: 1, npi: 1 });
    assert.deepEqual(destinationAddress('0793026727', { ton: 2 }), { addr: '0793026727', ton: 2, npi: 1 });
  });
});
