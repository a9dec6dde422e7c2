import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalMessageId } from '../../../src/network/smpp/message-ids.js';
import { isReceipt, parseReceipt } from '../../../src/network/smpp/receipt.js';

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
const REAL_WORLD = 'id:0123ABCD sub:001 dlvrd:001 submit date:2511221530 done date:2511221531 stat:DELIVRD err:000 text:Hello';

describe('telling receipts from mobile-originated messages', () => {
  it('is a receipt when esm_class says delivery receipt or intermediate notification', () => {
    assert.equal(isReceipt({ esm_class: 0x04 }), true);
    assert.equal(isReceipt({ esm_class: 0x20 }), true);
    assert.equal(isReceipt({ esm_class: 0x04 | 0x40 }), true, 'other bits do not matter');
  });

  it('is a receipt when it names the message it reports on', () => {
    assert.equal(isReceipt({ esm_class: 0, receipted_message_id: 'x' }), true);
  });

  it('is not a receipt otherwise, even with a UDH or receipt-like text', () => {
    assert.equal(isReceipt({ esm_class: 0, short_message: ascii('hello') }), false);
    assert.equal(isReceipt({ esm_class: 0x40, short_message: ascii('hello') }), false);
    assert.equal(isReceipt({ esm_class: 0x08, short_message: ascii(REAL_WORLD) }), false, '0x08 is an SME acknowledgement');
    assert.equal(isReceipt({}), false);
  });
});

describe('receipt text', () => {
  it('reads the conventional receipt text', () => {
    assert.deepEqual(parseReceipt({ esm_class: 4, short_message: ascii(REAL_WORLD) }), {
      id: '0123ABCD',
      stat: 'DELIVRD',
      err: '000',
      sub: '001',
      dlvrd: '001',
      intermediate: false,
      submitDate: Date.UTC(2025, 10, 22, 15, 30),
      doneDate: Date.UTC(2025, 10, 22, 15, 31),
    });
  });

  it('reads keys in any case, and takes everything after text: as the text', () => {
    const receipt = parseReceipt({ esm_class: 4, short_message: ascii('ID:77 SUB:001 DLVRD:000 STAT:undeliv ERR:027 TEXT:stat:DELIVRD id:1') });
    assert.equal(receipt?.id, '77');
    assert.equal(receipt?.stat, 'UNDELIV');
    assert.equal(receipt?.err, '027');
    assert.equal(receipt?.dlvrd, '000');
  });

  it('reads the text from message_payload when short_message is empty', () => {
    const receipt = parseReceipt({ esm_class: 4, short_message: Buffer.alloc(0), message_payload: ascii(REAL_WORLD) });
    assert.equal(receipt?.id, '0123ABCD');
    assert.equal(receipt?.stat, 'DELIVRD');
  });

  it('reads dates with seconds and with an underscore in the key, and ignores impossible dates', () => {
    const receipt = parseReceipt({ esm_class: 4, short_message: ascii('id:1 submit_date:251122153045 done date:2513221531 stat:EXPIRED') });
    assert.equal(receipt?.submitDate, Date.UTC(2025, 10, 22, 15, 30, 45));
    assert.equal(receipt?.doneDate, undefined, 'month 13');
    const dated = (date: string): number | undefined => parseReceipt({ esm_class: 4, short_message: ascii(`id:1 done date:${date} stat:DELIVRD`) })?.doneDate;
    assert.equal(dated('2402291200'), Date.UTC(2024, 1, 29, 12, 0), '29 February of a leap year');
    assert.equal(dated('2502291200'), undefined, '29 February of another year');
    assert.equal(dated('2504311200'), undefined, '31 April');
    assert.equal(dated('2512312359'), Date.UTC(2025, 11, 31, 23, 59));
    for (const impossible of ['2512310060', '2512312400', '251231235960', '2500011200', '25123123', '25123123590', '25a2311200']) {
      assert.equal(dated(impossible), undefined, impossible);
    }
  });

  it('leaves missing fields undefined, and calls a receipt without a state UNKNOWN', () => {
    assert.deepEqual(parseReceipt({ esm_class: 4, short_message: ascii('id:abc') }), { id: 'abc', stat: 'UNKNOWN', intermediate: false });
    assert.deepEqual(parseReceipt({ esm_class: 4, short_message: ascii('id:abc sub: dlvrd: stat:ENROUTE') }), { id: 'abc', stat: 'ENROUTE', intermediate: false });
  });

  it('marks intermediate notifications', () => {
    assert.equal(parseReceipt({ esm_class: 0x20, short_message: ascii('id:5 stat:ENROUTE') })?.intermediate, true);
    assert.equal(parseReceipt({ esm_class: 0x04, short_message: ascii('id:5 stat:ENROUTE') })?.intermediate, false);
  });

  it('returns undefined without an id, and never throws on junk', () => {
    assert.equal(parseReceipt({ esm_class: 4, short_message: ascii('garbage') }), undefined);
    assert.equal(parseReceipt({ esm_class: 4, short_message: ascii('id: stat:DELIVRD') }), undefined);
    assert.equal(parseReceipt({ esm_class: 4 }), undefined);
    assert.equal(parseReceipt({ esm_class: 4, short_message: 'not a buffer', network_error_code: Buffer.from([1]) }), undefined);
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    for (let i = 0; i < 500; i++) {
      const bytes = Buffer.from(Array.from({ length: random() }, random));
      const junk = Buffer.concat([ascii('id:'), bytes]);
      assert.doesNotThrow(() => parseReceipt({ esm_class: 4, short_message: junk, message_state: random(), network_error_code: bytes }));
    }
  });
});

describe('receipt TLVs', () => {
  it('works from TLVs alone', () => {
    const receipt = parseReceipt({ esm_class: 4, short_message: Buffer.alloc(0), receipted_message_id: 'abc', message_state: 5, network_error_code: Buffer.from([3, 0, 6]) });
    assert.deepEqual(receipt, { id: 'abc', stat: 'UNDELIV', err: '6', intermediate: false });
  });

  it('maps every message_state to its stat word', () => {
    const words = ['ENROUTE', 'DELIVRD', 'EXPIRED', 'DELETED', 'UNDELIV', 'ACCEPTD', 'UNKNOWN', 'REJECTD', 'SKIPPED'];
    words.forEach((word, i) => assert.equal(parseReceipt({ receipted_message_id: 'x', message_state: i + 1 })?.stat, word));
    assert.equal(parseReceipt({ receipted_message_id: 'x', message_state: 42 })?.stat, 'UNKNOWN');
  });

  it('reads the error code from the last two octets of network_error_code', () => {
    assert.equal(parseReceipt({ receipted_message_id: 'x', message_state: 5, network_error_code: Buffer.from([3, 0x04, 0x01]) })?.err, '1025');
  });

  it('prefers the id TLV (without its NUL) to the text, and the text stat and err to the TLVs', () => {
    const receipt = parseReceipt({
      esm_class: 4,
      short_message: ascii('id:111 stat:UNDELIV err:001'),
      receipted_message_id: 'A1B2\0',
      message_state: 2,
      network_error_code: Buffer.from([3, 0, 27]),
    });
    assert.deepEqual([receipt?.id, receipt?.stat, receipt?.err], ['A1B2', 'UNDELIV', '001']);
    assert.equal(parseReceipt({ receipted_message_id: Buffer.from('B3\0'), short_message: ascii('stat:DELIVRD') })?.id, 'B3');
  });
});

describe('message id forms', () => {
  it('brings a hex submit id and a decimal receipt id to the same value', () => {
    assert.equal(canonicalMessageId('1A2B3C', 'hex'), canonicalMessageId('1715004', 'decimal'));
    assert.equal(canonicalMessageId('1a2b3c', 'hex'), '1715004');
    assert.equal(canonicalMessageId('0x1A2B3C', 'hex'), '1715004');
  });

  it('drops leading zeros and keeps ids beyond 2^53 exact', () => {
    assert.equal(canonicalMessageId('00001a2b3c', 'hex'), '1715004');
    assert.equal(canonicalMessageId('0001715004', 'decimal'), '1715004');
    assert.equal(canonicalMessageId('ffffffffffffffffff', 'hex'), (2n ** 72n - 1n).toString());
    assert.equal(canonicalMessageId('123456789012345678901', 'decimal'), '123456789012345678901');
  });

  it('compares text ids trimmed and case-insensitively', () => {
    assert.equal(canonicalMessageId('  AbC-1 ', 'text'), 'abc-1');
    assert.equal(canonicalMessageId('0123ABCD', 'text'), canonicalMessageId('0123abcd', 'text'));
  });

  it('falls back to the text form when an id does not parse', () => {
    assert.equal(canonicalMessageId('Not-Hex', 'hex'), 'not-hex');
    assert.equal(canonicalMessageId('12A', 'decimal'), '12a');
    assert.equal(canonicalMessageId('', 'decimal'), '');
  });
});
