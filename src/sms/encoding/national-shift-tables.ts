import { buildGsm7Charset, type ExtensionTable, type Gsm7Charset, type NationalLanguage } from './gsm7-charset.js';
import { GSM7_DEFAULT_EXTENSION, GSM7_DEFAULT_TABLE } from './gsm7.js';

/**
 * National language tables of 3GPP TS 23.038 annex A for Turkish, Spanish and Portuguese.
 * A single shift table replaces the extension table; a locking shift table replaces the
 * default alphabet. Spanish has no locking shift table (A.3.2 is void).
 */

const SINGLE_SHIFT: Readonly<Record<NationalLanguage, ExtensionTable>> = {
  // A.2.1
  TR: {
    ...GSM7_DEFAULT_EXTENSION,
    0x47: 'Ğ', 0x49: 'İ', 0x53: 'Ş', 0x63: 'ç', 0x67: 'ğ', 0x69: 'ı', 0x73: 'ş',
  },
  // A.2.2
  ES: {
    ...GSM7_DEFAULT_EXTENSION,
    0x09: 'ç', 0x41: 'Á', 0x49: 'Í', 0x4f: 'Ó', 0x55: 'Ú', 0x61: 'á', 0x69: 'í', 0x6f: 'ó', 0x75: 'ú',
  },
  // A.2.3
  PT: {
    ...GSM7_DEFAULT_EXTENSION,
    0x05: 'ê', 0x09: 'ç', 0x0b: 'Ô', 0x0c: 'ô', 0x0e: 'Á', 0x0f: 'á',
    0x12: 'Φ', 0x13: 'Γ', 0x15: 'Ω', 0x16: 'Π', 0x17: 'Ψ', 0x18: 'Σ', 0x19: 'Θ', 0x1f: 'Ê',
    0x41: 'À', 0x49: 'Í', 0x4f: 'Ó', 0x55: 'Ú', 0x5b: 'Ã', 0x5c: 'Õ',
    0x61: 'Â', 0x69: 'í', 0x6f: 'ó', 0x75: 'ú', 0x7b: 'ã', 0x7c: 'õ', 0x7f: 'â',
  },
};

const LOCKING_SHIFT: Readonly<Partial<Record<NationalLanguage, string>>> = {
  // A.3.1
  TR:
    '@£$¥€éùıòÇ\nĞğ\rÅå' +
    'Δ_ΦΓΛΩΠΨΣΘΞ\u001bŞşßÉ' +
    ' !"#¤%&\'()*+,-./' +
    '0123456789:;<=>?' +
    'İABCDEFGHIJKLMNO' +
    'PQRSTUVWXYZÄÖÑÜ§' +
    'çabcdefghijklmno' +
    'pqrstuvwxyzäöñüà',
  // A.3.3
  PT:
    '@£$¥êéúíóç\nÔô\rÁá' +
    'Δ_ªÇÀ∞^\\€Ó|\u001bÂâÊÉ' +
    ' !"#º%&\'()*+,-./' +
    '0123456789:;<=>?' +
    'ÍABCDEFGHIJKLMNO' +
    'PQRSTUVWXYZÃÕÚÜ§' +
    '~abcdefghijklmno' +
    'pqrstuvwxyzãõ`üà',
};

export const NATIONAL_LANGUAGES: readonly NationalLanguage[] = ['TR', 'ES', 'PT'];

export function isNationalLanguage(code: string): code is NationalLanguage {
  return (NATIONAL_LANGUAGES as readonly string[]).includes(code);
}

const cache = new Map<string, Gsm7Charset>();

/**
 * The charset for a language and shift combination, or undefined when that combination does
 * not exist (no shift requested, or a locking shift for Spanish).
 */
export function nationalGsm7Charset(
  languageCode: NationalLanguage,
  singleShift: boolean,
  lockingShift: boolean,
): Gsm7Charset | undefined {
  const locking = lockingShift ? LOCKING_SHIFT[languageCode] : undefined;
  if (lockingShift && locking === undefined) return undefined;
  if (!singleShift && !lockingShift) return undefined;
  const key = `${languageCode}:${singleShift}:${lockingShift}`;
  let charset = cache.get(key);
  if (charset === undefined) {
    charset = buildGsm7Charset(
      locking ?? GSM7_DEFAULT_TABLE,
      singleShift ? SINGLE_SHIFT[languageCode] : GSM7_DEFAULT_EXTENSION,
      { languageCode, singleShift, lockingShift },
    );
    cache.set(key, charset);
  }
  return charset;
}
