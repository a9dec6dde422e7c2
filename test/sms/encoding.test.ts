import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  analyzeBinary,
  analyzeText,
  decodeGsm7,
  decodeUcs2,
  encodeGsm7,
  encodeUcs2,
  gsm7SeptetCount,
  isGsm7,
  isTooLong,
  isTransliterationCode,
  LANGUAGE_CODES,
  MAX_PARTS,
  packSeptets,
  parseHexContent,
  payloadOctets,
  TRANSLITERATION_CODES,
  transliterate,
  unpackSeptets,
  utf16UnitCount,
  GSM7_DEFAULT_CHARSET,
} from '../../src/sms/encoding/index.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('GSM 03.38 alphabet', () => {
  const basicSample = '@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà\n\r !"#%&\'()*+,-./09:;<=>?AZaz';

  it('has 128 basic entries with the escape at 0x1B', () => {
    assert.equal(GSM7_DEFAULT_CHARSET.basic.length, 128);
    assert.equal(GSM7_DEFAULT_CHARSET.basic[0x00], '@');
    assert.equal(GSM7_DEFAULT_CHARSET.basic[0x24], '¤');
    assert.equal(GSM7_DEFAULT_CHARSET.basic[0x7f], 'à');
  });

  it('counts every basic character as one septet', () => {
    assert.equal(gsm7SeptetCount(basicSample), [...basicSample].length);
  });

  it('counts every extension character as two septets', () => {
    for (const char of ['^', '{', '}', '\\', '[', '~', ']', '|', '€', '\f']) {
      assert.equal(gsm7SeptetCount(char), 2, `septets of ${JSON.stringify(char)}`);
    }
    assert.equal(gsm7SeptetCount('a€b'), 4);
  });

  it('reports characters outside the alphabet as not representable', () => {
    for (const char of ['`', 'ç', 'ş', 'ж', '😀', '\u001b', '\t', 'á']) {
      assert.equal(gsm7SeptetCount(`ok${char}`), undefined, `${JSON.stringify(char)} should not be GSM`);
      assert.equal(isGsm7(char), false);
    }
  });

  it('encodes unpacked septets with extension characters escaped', () => {
    assert.deepEqual([...encodeGsm7('@£$')], [0x00, 0x01, 0x02]);
    assert.deepEqual([...encodeGsm7('a€[')], [0x61, 0x1b, 0x65, 0x1b, 0x3c]);
    assert.deepEqual([...encodeGsm7('')], []);
  });

  it('refuses to encode a character outside the alphabet', () => {
    assert.throws(() => encodeGsm7('abcж'), /U\+0436 at index 3/);
  });

  it('decodes what it encodes', () => {
    const text = `${basicSample}^{}\\[~]|€\f`;
    assert.equal(decodeGsm7(encodeGsm7(text)), text);
  });

  it('decodes unknown escapes, doubled and trailing escapes as the specification says', () => {
    assert.equal(decodeGsm7([0x1b, 0x41]), 'A');
    assert.equal(decodeGsm7([0x61, 0x1b, 0x1b, 0x62]), 'a b');
    assert.equal(decodeGsm7([0x61, 0x1b]), 'a');
  });
});

describe('septet packing', () => {
  it('packs the classic "hellohello" vector', () => {
    const packed = packSeptets(encodeGsm7('hellohello'));
    assert.equal(hex(packed), 'e8329bfd4697d9ec37');
  });

  it('unpacks back to the same septets, with and without fill bits', () => {
    const septets = encodeGsm7('The quick brown fox €[]');
    assert.deepEqual(unpackSeptets(packSeptets(septets), septets.length), septets);
    for (let fill = 0; fill <= 6; fill++) {
      assert.deepEqual(unpackSeptets(packSeptets(septets, fill), septets.length, fill), septets);
    }
  });

  it('packs eight septets into seven octets', () => {
    assert.equal(packSeptets(new Uint8Array(8).fill(0x7f)).length, 7);
    assert.equal(packSeptets(new Uint8Array(9)).length, 8);
  });

  it('rejects a septet count larger than the data holds', () => {
    assert.throws(() => unpackSeptets(new Uint8Array(7), 9), RangeError);
    assert.throws(() => packSeptets([1], 7), RangeError);
  });
});

describe('UCS-2', () => {
  it('counts a character outside the BMP as two units', () => {
    assert.equal(utf16UnitCount('Aж'), 2);
    assert.equal(utf16UnitCount('😀'), 2);
  });

  it('encodes big-endian UTF-16 and decodes it back', () => {
    const bytes = encodeUcs2('Aж😀');
    assert.equal(hex(bytes), '00410436d83dde00');
    assert.equal(decodeUcs2(bytes), 'Aж😀');
  });

  it('decodes long payloads and rejects odd lengths', () => {
    const long = 'ж'.repeat(20000);
    assert.equal(decodeUcs2(encodeUcs2(long)), long);
    assert.throws(() => decodeUcs2([0x00, 0x41, 0x00]), RangeError);
  });
});

describe('analyzeText: GSM7', () => {
  it('fits 160 characters in one part', () => {
    const result = analyzeText('a'.repeat(160));
    assert.equal(result.encoding, 'GSM7');
    assert.equal(result.messageCount, 1);
    assert.equal(result.perPart, 160);
    assert.equal(result.charactersRemaining, 0);
  });

  it('splits 161 characters into 153 + 8', () => {
    const result = analyzeText('a'.repeat(161));
    assert.equal(result.messageCount, 2);
    assert.equal(result.perPart, 153);
    assert.deepEqual(result.parts.map((p) => p.length), [153, 8]);
    assert.equal(result.charactersRemaining, 145);
  });

  it('needs 2 parts for 306 characters and 3 for 307', () => {
    assert.equal(analyzeText('a'.repeat(306)).messageCount, 2);
    assert.equal(analyzeText('a'.repeat(306)).charactersRemaining, 0);
    assert.equal(analyzeText('a'.repeat(307)).messageCount, 3);
  });

  it('counts € as two septets: 80 fit one part, 81 need two', () => {
    const eighty = analyzeText('€'.repeat(80));
    assert.equal(eighty.units, 160);
    assert.equal(eighty.messageCount, 1);
    const eightyOne = analyzeText('€'.repeat(81));
    assert.equal(eightyOne.encoding, 'GSM7');
    assert.equal(eightyOne.messageCount, 2);
    assert.deepEqual(eightyOne.parts, ['€'.repeat(76), '€'.repeat(5)]);
    assert.equal(eightyOne.charactersRemaining, 143);
  });

  it('moves an escaped character whole to the next part', () => {
    const text = `${'a'.repeat(152)}€${'b'.repeat(10)}`;
    const result = analyzeText(text);
    assert.equal(result.units, 164);
    assert.deepEqual(result.parts, ['a'.repeat(152), `€${'b'.repeat(10)}`]);
    assert.equal(result.charactersRemaining, 141);
    assert.equal(result.parts.join(''), text);
  });

  it('keeps a part full when the escaped character fits exactly', () => {
    const result = analyzeText(`${'a'.repeat(151)}€${'b'.repeat(10)}`);
    assert.deepEqual(result.parts, [`${'a'.repeat(151)}€`, 'b'.repeat(10)]);
  });

  it('reports 100 characters remaining for a 60-character text', () => {
    const result = analyzeText('x'.repeat(60));
    assert.equal(result.messageCount, 1);
    assert.equal(result.charactersRemaining, 100);
  });

  it('treats empty text as one empty part with full capacity', () => {
    assert.deepEqual(analyzeText(''), {
      encoding: 'GSM7',
      units: 0,
      messageCount: 1,
      perPart: 160,
      charactersRemaining: 160,
      parts: [''],
    });
  });
});

describe('analyzeText: UCS-2', () => {
  it('fits 70 units in one part and splits 71 into 67 + 4', () => {
    const seventy = analyzeText('ж'.repeat(70));
    assert.equal(seventy.encoding, 'UCS2');
    assert.equal(seventy.messageCount, 1);
    assert.equal(seventy.charactersRemaining, 0);
    const seventyOne = analyzeText('ж'.repeat(71));
    assert.equal(seventyOne.messageCount, 2);
    assert.equal(seventyOne.perPart, 67);
    assert.deepEqual(seventyOne.parts.map((p) => p.length), [67, 4]);
    assert.equal(seventyOne.charactersRemaining, 63);
  });

  it('switches the whole text to UCS-2 for one non-GSM character', () => {
    const result = analyzeText(`${'a'.repeat(159)}ж`);
    assert.equal(result.encoding, 'UCS2');
    assert.equal(result.messageCount, 3);
    assert.equal(result.charactersRemaining, 41);
  });

  it('counts an emoji as two units', () => {
    assert.equal(analyzeText('😀').units, 2);
    assert.equal(analyzeText('😀').charactersRemaining, 68);
    assert.equal(analyzeText('😀'.repeat(35)).messageCount, 1);
    const split = analyzeText('😀'.repeat(36));
    assert.equal(split.messageCount, 2);
    assert.deepEqual(split.parts, ['😀'.repeat(33), '😀'.repeat(3)]);
  });

  it('never splits a surrogate pair across parts', () => {
    const text = `${'ж'.repeat(66)}😀${'ж'.repeat(10)}`;
    const result = analyzeText(text);
    assert.equal(result.units, 78);
    assert.deepEqual(result.parts, ['ж'.repeat(66), `😀${'ж'.repeat(10)}`]);
    assert.equal(result.charactersRemaining, 55);
  });
});

describe('message length limit', () => {
  it(`accepts ${MAX_PARTS} parts and rejects 26`, () => {
    const max = analyzeText('a'.repeat(153 * 25));
    assert.equal(max.messageCount, 25);
    assert.equal(isTooLong(max), false);
    const over = analyzeText('a'.repeat(153 * 25 + 1));
    assert.equal(over.messageCount, 26);
    assert.equal(isTooLong(over), true);
  });

  it('applies the same limit to UCS-2 and measures the payload in encoded bytes', () => {
    const max = analyzeText('ж'.repeat(67 * 25));
    assert.equal(isTooLong(max), false);
    assert.equal(payloadOctets(max), 3350);
    assert.equal(isTooLong(analyzeText('ж'.repeat(67 * 25 + 1))), true);
    assert.equal(payloadOctets(analyzeText('a€')), 3);
  });
});

describe('analyzeText: national language tables', () => {
  it('keeps Turkish letters in GSM7 with the Turkish single shift table', () => {
    const text = 'ş'.repeat(10);
    assert.equal(analyzeText(text).encoding, 'UCS2');
    const result = analyzeText(text, { languageCode: 'TR', singleShift: true });
    assert.equal(result.encoding, 'GSM7');
    assert.equal(result.units, 20);
    assert.equal(result.perPart, 155);
    assert.equal(result.charactersRemaining, 135);
    assert.deepEqual(result.nationalLanguage, { languageCode: 'TR', singleShift: true, lockingShift: false });
  });

  it('uses 149 septets per part when a single shift message is concatenated', () => {
    const result = analyzeText('ş'.repeat(78), { languageCode: 'TR', singleShift: true });
    assert.equal(result.messageCount, 2);
    assert.equal(result.perPart, 149);
    assert.deepEqual(result.parts, ['ş'.repeat(74), 'ş'.repeat(4)]);
  });

  it('prefers the locking shift table when it needs fewer parts', () => {
    const text = 'ş'.repeat(100);
    assert.equal(analyzeText(text, { languageCode: 'TR', singleShift: true }).messageCount, 2);
    const both = analyzeText(text, { languageCode: 'TR', singleShift: true, lockingShift: true });
    assert.equal(both.messageCount, 1);
    assert.equal(both.units, 100);
    assert.equal(both.nationalLanguage?.lockingShift, true);
  });

  it('does not use a national table the text does not need', () => {
    const result = analyzeText('plain text', { languageCode: 'TR', singleShift: true });
    assert.equal(result.perPart, 160);
    assert.equal(result.nationalLanguage, undefined);
  });

  it('ignores the language without a shift, and Spanish has no locking shift', () => {
    assert.equal(analyzeText('ş', { languageCode: 'TR' }).encoding, 'UCS2');
    assert.equal(analyzeText('á', { languageCode: 'ES', lockingShift: true }).encoding, 'UCS2');
    assert.equal(analyzeText('á', { languageCode: 'ES', singleShift: true }).encoding, 'GSM7');
  });

  it('tries every language with AUTODETECT', () => {
    const result = analyzeText('São João', { languageCode: 'AUTODETECT', singleShift: true });
    assert.equal(result.encoding, 'GSM7');
    assert.equal(result.nationalLanguage?.languageCode, 'PT');
  });
});

describe('binary content', () => {
  it('parses space-separated pairs, 4-digit groups and contiguous hex', () => {
    assert.deepEqual([...(parseHexContent('0f c2 4a bf 34 13 ba') as Uint8Array)], [
      0x0f, 0xc2, 0x4a, 0xbf, 0x34, 0x13, 0xba,
    ]);
    assert.deepEqual([...(parseHexContent('0048 0065 006c') as Uint8Array)], [0x00, 0x48, 0x00, 0x65, 0x00, 0x6c]);
    assert.deepEqual([...(parseHexContent('0fC24A') as Uint8Array)], [0x0f, 0xc2, 0x4a]);
    assert.deepEqual([...(parseHexContent(' 0f\n\tc2 ') as Uint8Array)], [0x0f, 0xc2]);
  });

  it('returns an error message for invalid hex', () => {
    for (const input of ['', '   ', '0g', 'abc', '0f c', '0x0f', '0f,c2']) {
      const result = parseHexContent(input);
      assert.equal(typeof result, 'string', `${JSON.stringify(input)} should be rejected`);
    }
    assert.match(parseHexContent('0f c') as string, /odd number/);
  });

  it('counts 140 octets as one part and splits above that into 134-octet parts', () => {
    assert.deepEqual(analyzeBinary(new Uint8Array(140)), { messageCount: 1, octets: 140, tooLong: false });
    assert.equal(analyzeBinary(new Uint8Array(141)).messageCount, 2);
    assert.equal(analyzeBinary(new Uint8Array(134 * 3)).messageCount, 3);
    assert.equal(analyzeBinary(new Uint8Array(134 * 3 + 1)).messageCount, 4);
    assert.equal(analyzeBinary(new Uint8Array(0)).messageCount, 1);
  });

  it('sends a payload with its own UDH as one part, too long above 140 octets', () => {
    assert.deepEqual(analyzeBinary(new Uint8Array(140), 0x40), { messageCount: 1, octets: 140, tooLong: false });
    assert.equal(analyzeBinary(new Uint8Array(141), 0x40).tooLong, true);
    assert.equal(analyzeBinary(new Uint8Array(141), 0x03).messageCount, 2);
  });

  it('rejects more than 25 binary parts', () => {
    assert.equal(analyzeBinary(new Uint8Array(134 * 25)).tooLong, false);
    assert.equal(analyzeBinary(new Uint8Array(134 * 25 + 1)).tooLong, true);
  });
});

describe('transliteration', () => {
  it('lists the Infobip codes', () => {
    assert.equal(TRANSLITERATION_CODES.length, 12);
    assert.equal(isTransliterationCode('SERBIAN_CYRILLIC'), true);
    assert.equal(isTransliterationCode('KLINGON'), false);
    assert.deepEqual([...LANGUAGE_CODES], ['NONE', 'TR', 'ES', 'PT', 'AUTODETECT']);
  });

  it('turns Turkish text into GSM-only text that is then counted as GSM7', () => {
    const text = 'Şişli’de ığdır, İstanbul; çiçek Ğ Çö';
    assert.equal(analyzeText(text).encoding, 'UCS2');
    const result = transliterate(text, 'TURKISH');
    assert.equal(result, 'Sisli’de igdir, Istanbul; cicek G Çö');
    assert.equal(isGsm7(transliterate('Şişli de ığdır İ ç ğ', 'TURKISH')), true);
    assert.equal(analyzeText(transliterate('Şişli de ığdır İ ç ğ', 'TURKISH')).encoding, 'GSM7');
  });

  it('changes nothing with NONE and leaves characters no table covers', () => {
    assert.equal(transliterate('Şişli ж', 'NONE'), 'Şişli ж');
    assert.equal(transliterate('Şişli ж', 'TURKISH'), 'Sisli ж');
  });

  it('matches letters typed with combining marks', () => {
    assert.equal(transliterate('s\u0327', 'TURKISH'), 's');
  });

  it('maps Greek to GSM Greek capitals and Latin lookalikes', () => {
    const result = transliterate('Καλημέρα ψυχή', 'GREEK');
    assert.equal(result, 'KAΛHMEPA ΨYXH');
    assert.equal(isGsm7(result), true);
  });

  it('romanises Cyrillic, Serbian and Bulgarian', () => {
    assert.equal(transliterate('Привет, Щука! Жук', 'CYRILLIC'), 'Privet, Shchuka! Zhuk');
    assert.equal(transliterate('Ђорђе Џаковић', 'SERBIAN_CYRILLIC'), 'Djordje Dzakovic');
    assert.equal(transliterate('България, щастие', 'BULGARIAN_CYRILLIC'), 'Balgariya, shtastie');
  });

  it('strips Central European, Baltic, Portuguese and Colombian diacritics', () => {
    assert.equal(transliterate('Łódź, Żółć, Příliš, Đurđa, Győr', 'CENTRAL_EUROPEAN'), 'Lodz, Zolc, Prilis, Durda, Gyor');
    assert.equal(transliterate('Rīga, Ķekava, Šiauliai, Ģirts', 'BALTIC'), 'Riga, Kekava, Siauliai, Girts');
    assert.equal(transliterate('São João, ação, Você, À', 'PORTUGUESE'), 'Sao Joao, acao, Voce, A');
    assert.equal(transliterate('Bogotá, información, Medellín, niño', 'COLOMBIAN'), 'Bogota, informacion, Medellin, niño');
  });

  it('applies every table plus punctuation with ALL and NON_UNICODE', () => {
    const text = '“Şimdi” – Привет… «Καλή» ‘ok’ ŷ œuvre\u00a0Łódź';
    const expected = '"Simdi" - Privet... "KAΛH" \'ok\' y oeuvre Lodz';
    assert.equal(transliterate(text, 'ALL'), expected);
    assert.equal(transliterate(text, 'NON_UNICODE'), expected);
    assert.equal(isGsm7(expected), true);
  });

  it('never alters characters GSM already has', () => {
    const gsm = 'Çéèàù ÄÖÑÜ äöñü ΔΦΓΛΩΠΨΣΘΞ €[]';
    for (const code of TRANSLITERATION_CODES) assert.equal(transliterate(gsm, code), gsm, code);
  });
});
