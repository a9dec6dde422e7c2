import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutboundMessage } from '../../../src/network/carrier.js';
import { destinationAddress, sourceAddress } from '../../../src/network/smpp/addressing.js';
import { decodeInboundPart } from '../../../src/network/smpp/inbound-decoding.js';
import { Reassembler } from '../../../src/smsc-sim/reassembly.js';
import type { LongMessageMode } from '../../../src/network/smpp/smsc-options.js';
import { encodeSubmitParts, fillBits, type EncodingOptions, type SubmitPart } from '../../../src/network/smpp/submit-encoding.js';
import { analyzeText, encodeGsm7, nationalGsm7Charset, transliterate, unpackSeptets } from '../../../src/sms/encoding/index.js';

function sms(content: OutboundMessage['content'], flash = false): OutboundMessage {
  return { accountId: 'a', pk: 1, messageId: 'm', destination: '41793026727', content, encoding: 'GSM7', messageCount: 1, validUntil: 0, flash, attempts: 1 };
}

const options = (longMessages: LongMessageMode, gsm7Packing: 'unpacked' | 'packed' = 'unpacked', gsm7DataCoding = 0): EncodingOptions => ({
  longMessages,
  gsm7Packing,
  gsm7DataCoding,
});

const fieldsOf = (part: SubmitPart): Record<string, unknown> => ({
  source_addr: 'x',
  destination_addr: 'y',
  esm_class: part.esmClass,
  data_coding: part.dataCoding,
  short_message: part.shortMessage,
  ...part.tlvs,
});

/** What the SMSC (or a handset) reads back from the parts. */
function readBack(parts: SubmitPart[], packed = false): { text: string; count: number } {
  const reassembler = new Reassembler();
  for (const part of parts) {
    const done = reassembler.add(decodeInboundPart(fieldsOf(part), packed));
    if (done) return { text: done.text, count: done.smsCount };
  }
  throw new Error('the parts did not complete a message');
}

/** Bits a part's user data takes once the SMSC packs it: UDH octets, fill bits, 7 per septet. */
function userDataBits(part: SubmitPart, packed: boolean): number {
  const udhOctets = (part.esmClass & 0x40) !== 0 ? part.shortMessage[0]! + 1 : 0;
  if (part.dataCoding === 8 || packed) return part.shortMessage.length * 8;
  return udhOctets * 8 + fillBits(udhOctets) + (part.shortMessage.length - udhOctets) * 7;
}

const MODES = ['udh8', 'udh16', 'sar', 'payload'] as const;
const gsm = `${'Prices in € and [brackets] ~ '.repeat(10)}end`;
const ucs = `${'Привет 👋 мир! '.repeat(10)}конец`;
const turkish = 'Çok güzel ğ ş ı '.repeat(12);
const TR_SINGLE = { languageCode: 'TR', singleShift: true };

describe('submit_sm text encoding', () => {
  for (const mode of MODES) {
    for (const packing of ['unpacked', 'packed'] as const) {
      it(`round-trips long GSM-7, UCS-2 and national text by ${mode} (${packing})`, () => {
        for (const content of [{ text: gsm }, { text: ucs }, { text: turkish, language: TR_SINGLE }]) {
          const parts = encodeSubmitParts(sms(content), options(mode, packing), 300);
          assert.equal(readBack(parts, packing === 'packed').text, content.text);
          if (mode === 'payload') assert.equal(parts.length, 1);
          else {
            assert.ok(parts.length > 1);
            for (const part of parts) assert.ok(userDataBits(part, packing === 'packed') <= 140 * 8, 'each part fits 140 octets once packed');
          }
        }
      });
    }
  }

  it('cuts udh8 and sar parts exactly where the API counted them', () => {
    for (const content of [{ text: gsm }, { text: ucs }, { text: turkish, language: TR_SINGLE }]) {
      const expected = analyzeText(content.text, content.language ?? {}).parts;
      for (const mode of ['udh8', 'sar'] as const) {
        const parts = encodeSubmitParts(sms(content), options(mode), 7);
        assert.deepEqual(
          parts.map((part) => decodeInboundPart(fieldsOf(part)).text),
          expected,
        );
      }
    }
  });

  it('never splits an escape pair or a surrogate pair', () => {
    const escaped = `${'a'.repeat(152)}€${'b'.repeat(10)}`;
    const surrogate = `${'ж'.repeat(66)}😀${'ж'.repeat(10)}`;
    for (const mode of ['udh8', 'udh16', 'sar'] as const) {
      for (const text of [escaped, surrogate]) {
        const parts = encodeSubmitParts(sms({ text }), options(mode), 1);
        const texts = parts.map((part) => decodeInboundPart(fieldsOf(part)).text);
        assert.equal(texts.join(''), text);
        assert.ok(!texts[0]!.includes('€') && !texts[0]!.includes('😀'), `${mode}: the pair moves whole to the next part`);
        const first = parts[0]!.shortMessage;
        const lastUnit = parts[0]!.dataCoding === 8 ? first.readUInt16BE(first.length - 2) : first[first.length - 1]!;
        assert.ok(lastUnit !== 0x1b && (lastUnit < 0xd800 || lastUnit > 0xdbff));
      }
    }
  });

  it('re-splits udh16 parts at 152 septets / 66 UCS-2 units, which may add a part', () => {
    const text = 'a'.repeat(306);
    assert.equal(analyzeText(text).messageCount, 2);
    const parts = encodeSubmitParts(sms({ text }), options('udh16'), 1);
    assert.deepEqual(parts.map((part) => part.shortMessage.length - 7), [152, 152, 2]);
    const units = encodeSubmitParts(sms({ text: 'ж'.repeat(134) }), options('udh16'), 1);
    assert.deepEqual(units.map((part) => (part.shortMessage.length - 7) / 2), [66, 66, 2]);
  });

  it('writes the concatenation UDH or TLVs of each mode, with the reference cut to 8 or 16 bits', () => {
    const total = analyzeText(gsm).messageCount;
    const udh8 = encodeSubmitParts(sms({ text: gsm }), options('udh8'), 0x12345);
    udh8.forEach((part, i) => {
      assert.deepEqual([...part.shortMessage.subarray(0, 6)], [5, 0x00, 3, 0x45, total, i + 1]);
      assert.equal(part.esmClass, 0x40);
      assert.deepEqual(part.tlvs, {});
    });
    const udh16 = encodeSubmitParts(sms({ text: gsm }), options('udh16'), 0x12345);
    assert.deepEqual([...udh16[1]!.shortMessage.subarray(0, 7)], [6, 0x08, 4, 0x23, 0x45, udh16.length, 2]);
    const sar = encodeSubmitParts(sms({ text: gsm }), options('sar'), 0x12345);
    assert.equal(sar.length, total);
    assert.deepEqual(sar[1]!.tlvs, { sar_msg_ref_num: 0x2345, sar_total_segments: total, sar_segment_seqnum: 2 });
    assert.equal(sar[1]!.esmClass, 0);
    assert.deepEqual(sar[1]!.shortMessage, Buffer.from(encodeGsm7(analyzeText(gsm).parts[1]!)));
  });

  it('puts the whole text in message_payload without a UDH in payload mode', () => {
    const [part] = encodeSubmitParts(sms({ text: gsm }), options('payload'), 1);
    assert.deepEqual(part, { shortMessage: Buffer.alloc(0), dataCoding: 0, esmClass: 0, tlvs: { message_payload: Buffer.from(encodeGsm7(gsm)) } });
  });

  it('sends a short text without a header: GSM as the configured data_coding, UCS-2 as 8, flash as class 0', () => {
    assert.deepEqual(encodeSubmitParts(sms({ text: 'Hello' }), options('udh8'), 1), [{ shortMessage: Buffer.from('Hello'), dataCoding: 0, esmClass: 0, tlvs: {} }]);
    assert.equal(encodeSubmitParts(sms({ text: 'Hello' }), options('udh8', 'unpacked', 1), 1)[0]!.dataCoding, 1);
    assert.deepEqual(encodeSubmitParts(sms({ text: 'Ж' }), options('udh8'), 1)[0]!.shortMessage, Buffer.from([0x04, 0x16]));
    assert.equal(encodeSubmitParts(sms({ text: 'Ж' }), options('udh8'), 1)[0]!.dataCoding, 8);
    assert.equal(encodeSubmitParts(sms({ text: 'Hi' }, true), options('udh8', 'unpacked', 1), 1)[0]!.dataCoding, 0x10);
    assert.equal(encodeSubmitParts(sms({ text: 'Ж' }, true), options('udh8'), 1)[0]!.dataCoding, 0x18);
    const flashParts = encodeSubmitParts(sms({ text: gsm }, true), options('udh8'), 1);
    assert.ok(flashParts.every((part) => part.dataCoding === 0x10));
  });

  it('encodes the text the API counted: transliterated as requested', () => {
    const original = 'Привет, как дела?';
    const wire = transliterate(original, 'CYRILLIC');
    const [part] = encodeSubmitParts(sms({ text: original, transliteration: 'CYRILLIC' }), options('udh8'), 1);
    assert.equal(part!.dataCoding, 0);
    assert.equal(decodeInboundPart(fieldsOf(part!)).text, wire);
    // Stored texts are already transliterated: encoding them again gives the same parts.
    const stored = encodeSubmitParts(sms({ text: wire, transliteration: 'CYRILLIC' }), options('udh8'), 1);
    assert.deepEqual(stored, [part]);
  });
});

describe('packed GSM 03.38', () => {
  it('aligns septets after the UDH with fill bits', () => {
    assert.deepEqual([0, 6, 7, 9, 12].map(fillBits), [0, 1, 0, 5, 2]);
    const [part] = encodeSubmitParts(sms({ text: 'hellohello' }), options('udh8', 'packed'), 1);
    assert.equal(part!.shortMessage.toString('hex'), 'e8329bfd4697d9ec37');
    const parts = encodeSubmitParts(sms({ text: gsm }), options('udh8', 'packed'), 1);
    const expected = analyzeText(gsm).parts[0]!;
    const septets = encodeGsm7(expected);
    assert.deepEqual(unpackSeptets(parts[0]!.shortMessage.subarray(6), septets.length, 1), septets);
    assert.ok(parts.every((part) => part.shortMessage.length <= 140));
  });

  it('packs after national language IEs with the matching fill bits', () => {
    const parts = encodeSubmitParts(sms({ text: turkish, language: TR_SINGLE }), options('udh8', 'packed'), 1);
    const udh = parts[0]!.shortMessage.subarray(0, 9);
    assert.deepEqual([...udh], [8, 0x00, 3, 1, parts.length, 1, 0x24, 1, 1]);
    const charset = nationalGsm7Charset('TR', true, false);
    const septets = encodeGsm7(analyzeText(turkish, TR_SINGLE).parts[0]!, charset);
    assert.deepEqual(unpackSeptets(parts[0]!.shortMessage.subarray(9), septets.length, fillBits(9)), septets);
  });

  it('fills seven spare bits with CR, which the reader drops, instead of a phantom @', () => {
    const [seven] = encodeSubmitParts(sms({ text: 'abcdefg' }), options('udh8', 'packed'), 1);
    assert.equal(seven!.shortMessage.length, 7);
    assert.equal(unpackSeptets(seven!.shortMessage)[7], 0x0d);
    assert.equal(decodeInboundPart(fieldsOf(seven!), true).text, 'abcdefg');
    const [endsInCr] = encodeSubmitParts(sms({ text: 'abcdefg\r' }), options('udh8', 'packed'), 1);
    assert.deepEqual([...unpackSeptets(endsInCr!.shortMessage)].slice(-2), [0x0d, 0x0d], 'a final CR on an octet boundary is doubled');
  });
});

describe('national language shifts', () => {
  it('announces a single shift table in the UDH of a one-part message', () => {
    const text = 'Çok güzel ğ ş ı';
    const [part] = encodeSubmitParts(sms({ text, language: TR_SINGLE }), options('udh8'), 1);
    assert.equal(part!.esmClass, 0x40);
    assert.deepEqual([...part!.shortMessage.subarray(0, 4)], [3, 0x24, 1, 1]);
    assert.equal(decodeInboundPart(fieldsOf(part!)).text, text);
  });

  it('announces a locking shift table with IE 0x25', () => {
    const text = 'ğşı İĞŞ';
    const language = { languageCode: 'TR', lockingShift: true };
    assert.equal(analyzeText(text, language).nationalLanguage?.lockingShift, true);
    const [part] = encodeSubmitParts(sms({ text, language }), options('udh8'), 1);
    assert.deepEqual([...part!.shortMessage.subarray(0, 4)], [3, 0x25, 1, 1]);
    assert.equal(decodeInboundPart(fieldsOf(part!)).text, text);
  });

  it('keeps the national IEs next to the concatenation IE in every part', () => {
    const parts = encodeSubmitParts(sms({ text: turkish, language: TR_SINGLE }), options('udh8'), 5);
    assert.equal(parts.length, analyzeText(turkish, TR_SINGLE).messageCount);
    for (const [i, part] of parts.entries()) assert.deepEqual([...part.shortMessage.subarray(0, 9)], [8, 0, 3, 5, parts.length, i + 1, 0x24, 1, 1]);
  });
});

describe('submit_sm binary encoding', () => {
  it('sends a payload that fits one part as given, with its data_coding and esm_class (0 by default)', () => {
    assert.deepEqual(encodeSubmitParts(sms({ hex: '0102 03', dataCoding: 4, esmClass: 0 }), options('udh8'), 1), [
      { shortMessage: Buffer.from([1, 2, 3]), dataCoding: 4, esmClass: 0, tlvs: {} },
    ]);
    const [plain] = encodeSubmitParts(sms({ hex: 'ff'.repeat(140) }), options('udh8'), 1);
    assert.deepEqual([plain!.dataCoding, plain!.esmClass, plain!.shortMessage.length], [0, 0, 140]);
  });

  it('never splits a payload that carries its own UDH', () => {
    const withUdh = `050003010201${'aa'.repeat(200)}`;
    const parts = encodeSubmitParts(sms({ hex: withUdh, esmClass: 0x40 }), options('udh8'), 1);
    assert.equal(parts.length, 1);
    assert.equal(parts[0]!.shortMessage.toString('hex'), withUdh);
    assert.equal(parts[0]!.esmClass, 0x40);
  });

  it('splits a long payload into 134-octet parts with an 8-bit UDH, as the API counted', () => {
    const hex = Array.from({ length: 300 }, (_, i) => (i % 256).toString(16).padStart(2, '0')).join('');
    const parts = encodeSubmitParts(sms({ hex, dataCoding: 4, esmClass: 0x03 }), options('udh8'), 9);
    assert.deepEqual(parts.map((part) => part.shortMessage.length - 6), [134, 134, 32]);
    assert.deepEqual([...parts[2]!.shortMessage.subarray(0, 6)], [5, 0, 3, 9, 3, 3]);
    assert.ok(parts.every((part) => part.esmClass === 0x43 && part.dataCoding === 4));
    assert.equal(readBack(parts).text, hex.toUpperCase());
  });

  it('uses 133-octet parts with a 16-bit UDH, bare 134-octet parts with SAR, and message_payload', () => {
    const hex = 'ab'.repeat(300);
    const udh16 = encodeSubmitParts(sms({ hex, dataCoding: 4 }), options('udh16'), 0x0102);
    assert.deepEqual(udh16.map((part) => part.shortMessage.length), [140, 140, 41]);
    assert.deepEqual([...udh16[0]!.shortMessage.subarray(0, 7)], [6, 8, 4, 1, 2, 3, 1]);
    assert.equal(readBack(udh16).text, hex.toUpperCase());
    const sar = encodeSubmitParts(sms({ hex, dataCoding: 4 }), options('sar'), 0x0102);
    assert.deepEqual(sar.map((part) => [part.shortMessage.length, part.esmClass, part.tlvs.sar_segment_seqnum]), [[134, 0, 1], [134, 0, 2], [32, 0, 3]]);
    assert.equal(readBack(sar).text, hex.toUpperCase());
    assert.deepEqual(encodeSubmitParts(sms({ hex, dataCoding: 4 }), options('payload'), 1), [
      { shortMessage: Buffer.alloc(0), dataCoding: 4, esmClass: 0, tlvs: { message_payload: Buffer.from(hex, 'hex') } },
    ]);
  });
});

describe('SMPP addresses', () => {
  it('sends a name as alphanumeric (5/0), as given even when longer than 11 characters', () => {
    assert.deepEqual(sourceAddress('InfoSMS', {}), { addr: 'InfoSMS', ton: 5, npi: 0 });
    assert.deepEqual(sourceAddress('A1', {}), { addr: 'A1', ton: 5, npi: 0 });
    assert.deepEqual(sourceAddress('AVeryLongSenderName', {}), { addr: 'AVeryLongSenderName', ton: 5, npi: 0 });
  });

  it('sends numbers of 9 or more digits as international (1/1) without the +', () => {
    assert.deepEqual(sourceAddress('+41793026727', {}), { addr: '41793026727', ton: 1, npi: 1 });
    assert.deepEqual(sourceAddress('123456789', {}), { addr: '123456789', ton: 1, npi: 1 });
  });

  it('sends shorter numbers as network-specific short codes (3/0)', () => {
    assert.deepEqual(sourceAddress('12345678', {}), { addr: '12345678', ton: 3, npi: 0 });
    assert.deepEqual(sourceAddress('123', {}), { addr: '123', ton: 3, npi: 0 });
  });

  it('sends no sender as an empty address (0/0)', () => {
    assert.deepEqual(sourceAddress(undefined, {}), { addr: '', ton: 0, npi: 0 });
    assert.deepEqual(sourceAddress('', {}), { addr: '', ton: 0, npi: 0 });
  });

  it('lets the SMSC settings fix TON and NPI, each on its own', () => {
    assert.deepEqual(sourceAddress('12345', { ton: 6, npi: 9 }), { addr: '12345', ton: 6, npi: 9 });
    assert.deepEqual(sourceAddress('InfoSMS', { npi: 1 }), { addr: 'InfoSMS', ton: 5, npi: 1 });
    assert.deepEqual(destinationAddress('0793026727', { ton: 2 }), { addr: '0793026727', ton: 2, npi: 1 });
  });

  it('sends destinations as international (1/1) without the +', () => {
    assert.deepEqual(destinationAddress('+41793026727', {}), { addr: '41793026727', ton: 1, npi: 1 });
    assert.deepEqual(destinationAddress('41793026727', {}), { addr: '41793026727', ton: 1, npi: 1 });
  });
});
