/**
 * SMS encoding and segmentation as handsets count it.
 *
 * National language tables (3GPP TS 23.038 annex A) are supported for Turkish, Spanish and
 * Portuguese: `analyzeText(text, { languageCode, singleShift, lockingShift })` uses them only when
 * a shift is allowed and the table lowers the part count; otherwise the default alphabet applies.
 */

export { analyzeText, isTooLong, payloadOctets, splitByCapacity, MAX_PARTS, MAX_PAYLOAD_OCTETS } from './segmenter.js';
export type { AnalyzeTextOptions, TextAnalysis, TextEncoding } from './segmenter.js';

export { analyzeBinary, parseHexContent, ESM_CLASS_UDHI } from './binary.js';
export type { BinaryAnalysis } from './binary.js';

export { transliterate, isTransliterationCode, TRANSLITERATION_CODES } from './transliteration.js';
export type { TransliterationCode } from './transliteration.js';

export {
  GSM7_DEFAULT_CHARSET,
  gsm7CharSeptets,
  gsm7SeptetCount,
  isGsm7,
  encodeGsm7,
  decodeGsm7,
} from './gsm7.js';
export { ESC } from './gsm7-charset.js';
export type { Gsm7Charset, NationalLanguage, NationalShift } from './gsm7-charset.js';
export { nationalGsm7Charset, isNationalLanguage, NATIONAL_LANGUAGES } from './national-shift-tables.js';
export { packSeptets, unpackSeptets } from './septet-packing.js';
export { utf16UnitCount, encodeUcs2, decodeUcs2 } from './ucs2.js';

/** Infobip's `languageCode` values for SMS. */
export const LANGUAGE_CODES = ['NONE', 'TR', 'ES', 'PT', 'AUTODETECT'] as const;

export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export function isLanguageCode(code: string): code is LanguageCode {
  return (LANGUAGE_CODES as readonly string[]).includes(code);
}
