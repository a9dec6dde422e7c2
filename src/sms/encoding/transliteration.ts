import { isGsm7 } from './gsm7.js';
import {
  BALTIC,
  BULGARIAN_CYRILLIC,
  CENTRAL_EUROPEAN,
  COLOMBIAN,
  CYRILLIC,
  GREEK,
  LATIN_EXTRA,
  PORTUGUESE,
  PUNCTUATION,
  SERBIAN_CYRILLIC,
  TURKISH,
  type ReplacementTable,
} from './transliteration-tables.js';

/** Infobip's TransliterationCode values. */
export const TRANSLITERATION_CODES = [
  'NONE',
  'TURKISH',
  'GREEK',
  'CYRILLIC',
  'SERBIAN_CYRILLIC',
  'CENTRAL_EUROPEAN',
  'BALTIC',
  'NON_UNICODE',
  'PORTUGUESE',
  'COLOMBIAN',
  'BULGARIAN_CYRILLIC',
  'ALL',
] as const;

export type TransliterationCode = (typeof TRANSLITERATION_CODES)[number];

export function isTransliterationCode(code: string): code is TransliterationCode {
  return (TRANSLITERATION_CODES as readonly string[]).includes(code);
}

// For the catch-all codes the first table listing a character wins, so generic Cyrillic takes
// precedence over the Serbian and Bulgarian readings of shared letters.
const EVERYTHING: readonly ReplacementTable[] = [
  PUNCTUATION, LATIN_EXTRA, TURKISH, CENTRAL_EUROPEAN, BALTIC, PORTUGUESE, COLOMBIAN,
  GREEK, CYRILLIC, SERBIAN_CYRILLIC, BULGARIAN_CYRILLIC,
];

/** NON_UNICODE and ALL are treated alike: both aim at a GSM-only result. */
const TABLES_BY_CODE: Readonly<Record<TransliterationCode, readonly ReplacementTable[]>> = {
  NONE: [],
  TURKISH: [TURKISH],
  GREEK: [GREEK],
  CYRILLIC: [CYRILLIC],
  SERBIAN_CYRILLIC: [SERBIAN_CYRILLIC],
  CENTRAL_EUROPEAN: [CENTRAL_EUROPEAN],
  BALTIC: [BALTIC],
  PORTUGUESE: [PORTUGUESE],
  COLOMBIAN: [COLOMBIAN],
  BULGARIAN_CYRILLIC: [BULGARIAN_CYRILLIC],
  NON_UNICODE: EVERYTHING,
  ALL: EVERYTHING,
};

const STRIPS_DIACRITICS: ReadonlySet<TransliterationCode> = new Set(['NON_UNICODE', 'ALL']);

const mergedTables = new Map<TransliterationCode, ReadonlyMap<string, string>>();

/**
 * Replaces characters that GSM 03.38 cannot carry by close GSM equivalents, using the tables of
 * `code`. Characters already representable in GSM are never touched, and characters no table
 * covers are kept (the message then stays UCS-2). NON_UNICODE and ALL additionally drop
 * diacritics from any remaining letter whose base letter is GSM (e.g. ŷ → y).
 */
export function transliterate(text: string, code: TransliterationCode): string {
  if (code === 'NONE') return text;
  const table = replacementsFor(code);
  const stripDiacritics = STRIPS_DIACRITICS.has(code);
  let out = '';
  // NFC first so that a letter typed as base + combining mark matches the table keys.
  for (const char of text.normalize('NFC')) {
    const replacement = table.get(char);
    if (replacement !== undefined) {
      out += replacement;
    } else if (stripDiacritics && !isGsm7(char)) {
      out += withoutDiacritics(char);
    } else {
      out += char;
    }
  }
  return out;
}

function replacementsFor(code: TransliterationCode): ReadonlyMap<string, string> {
  let merged = mergedTables.get(code);
  if (merged === undefined) {
    const map = new Map<string, string>();
    for (const table of TABLES_BY_CODE[code]) {
      for (const [from, to] of Object.entries(table)) {
        if (!map.has(from)) map.set(from, to);
      }
    }
    addUpperCase(map);
    mergedTables.set(code, map);
    merged = map;
  }
  return merged;
}

/** Derives 'Ж' → 'Zh' from 'ж' → 'zh', skipping upper-case forms GSM already has (Ç, Σ…). */
function addUpperCase(map: Map<string, string>): void {
  for (const [from, to] of [...map]) {
    const upper = from.toUpperCase();
    if (upper === from || [...upper].length !== 1 || map.has(upper) || isGsm7(upper)) continue;
    map.set(upper, to.charAt(0).toUpperCase() + to.slice(1));
  }
}

function withoutDiacritics(char: string): string {
  const base = char.normalize('NFD').replace(/\p{M}+/gu, '');
  return base !== '' && isGsm7(base) ? base : char;
}
