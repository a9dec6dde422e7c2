import { nationalIeCount, type Gsm7Charset, type NationalLanguage, type NationalShift } from './gsm7-charset.js';
import { GSM7_DEFAULT_CHARSET, gsm7CharSeptets, gsm7SeptetCount } from './gsm7.js';
import { isNationalLanguage, NATIONAL_LANGUAGES, nationalGsm7Charset } from './national-shift-tables.js';

/** Infobip rejects (REJECTED_MESSAGE_TOO_LONG) a message above 25 parts or 4000 payload bytes. */
export const MAX_PARTS = 25;
export const MAX_PAYLOAD_OCTETS = 4000;

const USER_DATA_OCTETS = 140;
const UDH_LENGTH_OCTETS = 1;
// 8-bit reference concatenation IE (IEI 0x00): IEI, length, reference, total, sequence.
const CONCAT_IE_OCTETS = 5;
// National language single/locking shift IE (IEI 0x24/0x25): IEI, length, language.
const NATIONAL_IE_OCTETS = 3;

export type TextEncoding = 'GSM7' | 'UCS2';

export interface TextAnalysis {
  encoding: TextEncoding;
  /** Septets for GSM7 (escaped characters count two), UTF-16 code units for UCS2. */
  units: number;
  messageCount: number;
  /** Capacity of each part in `units`: the single-part capacity when the text fits one part. */
  perPart: number;
  /** Free units left in the last part. */
  charactersRemaining: number;
  /** The text each part carries; joined they give back the original text. */
  parts: string[];
  /** Present only when a national language table was needed to stay in GSM7. */
  nationalLanguage?: NationalShift;
}

export interface AnalyzeTextOptions {
  /** 'TR' | 'ES' | 'PT', or 'AUTODETECT' to try all three; anything else means the default alphabet. */
  languageCode?: string;
  singleShift?: boolean;
  lockingShift?: boolean;
}

/**
 * Encoding and segmentation as a handset counts it. GSM7 is used when every character is in the
 * GSM 03.38 alphabet (basic or extension), otherwise UCS-2. One part holds 160 septets / 70 units;
 * a concatenated part holds 153 / 67 because of the User Data Header. An escaped GSM character and a
 * UTF-16 surrogate pair are never split, so a part may carry one unit less than its capacity.
 *
 * National language tables apply only when the caller allows a shift (`singleShift` /
 * `lockingShift` with a language) and only when they lower the part count, as the
 * National Language Identifier IEs in the UDH cost capacity (e.g. 155 instead of 160 septets).
 *
 * Empty text counts as one (empty) part with full capacity remaining: an empty SMS is still one
 * SMS on the wire, and this matches the preview a user sees before typing.
 */
export function analyzeText(text: string, options: AnalyzeTextOptions = {}): TextAnalysis {
  let best: TextAnalysis | undefined;
  for (const charset of gsm7Candidates(options)) {
    const septets = gsm7SeptetCount(text, charset);
    if (septets === undefined) continue;
    const analysis = analyzeGsm7(text, septets, charset);
    if (best === undefined || analysis.messageCount < best.messageCount) best = analysis;
  }
  return best ?? analyzeUcs2(text);
}

/** Size of the encoded payload: one byte per septet for GSM7, two per unit for UCS-2. */
export function payloadOctets(analysis: TextAnalysis): number {
  return analysis.encoding === 'GSM7' ? analysis.units : analysis.units * 2;
}

/**
 * Infobip's "more than 25 parts or more than 4000 bytes" rule. Bytes are read as the encoded
 * payload (see `payloadOctets`), not the UTF-8 size of the request text: that is what is sent
 * to the carrier. With this reading 25 full parts stay below 4000 bytes, so the part limit is
 * the one that normally triggers; the byte check is kept so the rule is stated completely.
 */
export function isTooLong(analysis: TextAnalysis): boolean {
  return analysis.messageCount > MAX_PARTS || payloadOctets(analysis) > MAX_PAYLOAD_OCTETS;
}

function gsm7Candidates(options: AnalyzeTextOptions): Gsm7Charset[] {
  const candidates: Gsm7Charset[] = [GSM7_DEFAULT_CHARSET];
  const code = options.languageCode;
  const languages: readonly NationalLanguage[] =
    code === 'AUTODETECT' ? NATIONAL_LANGUAGES : code !== undefined && isNationalLanguage(code) ? [code] : [];
  const single = options.singleShift === true;
  const locking = options.lockingShift === true;
  const shifts: Array<[boolean, boolean]> = [];
  if (single) shifts.push([true, false]);
  if (locking) shifts.push([false, true]);
  if (single && locking) shifts.push([true, true]);
  for (const language of languages) {
    for (const [s, l] of shifts) {
      const charset = nationalGsm7Charset(language, s, l);
      if (charset !== undefined) candidates.push(charset);
    }
  }
  return candidates;
}

function septetCapacity(udhOctets: number): number {
  return Math.floor(((USER_DATA_OCTETS - udhOctets) * 8) / 7);
}

function analyzeGsm7(text: string, septets: number, charset: Gsm7Charset): TextAnalysis {
  const nationalOctets = nationalIeCount(charset) * NATIONAL_IE_OCTETS;
  const single = septetCapacity(nationalOctets === 0 ? 0 : UDH_LENGTH_OCTETS + nationalOctets);
  const multi = septetCapacity(UDH_LENGTH_OCTETS + CONCAT_IE_OCTETS + nationalOctets);
  const cost = (char: string): number => gsm7CharSeptets(char, charset) ?? 0;
  const analysis: TextAnalysis = { encoding: 'GSM7', ...segment(text, cost, septets, single, multi) };
  if (charset.national !== undefined) analysis.nationalLanguage = charset.national;
  return analysis;
}

function analyzeUcs2(text: string): TextAnalysis {
  const single = USER_DATA_OCTETS / 2;
  const multi = Math.floor((USER_DATA_OCTETS - UDH_LENGTH_OCTETS - CONCAT_IE_OCTETS) / 2);
  return { encoding: 'UCS2', ...segment(text, (char) => char.length, text.length, single, multi) };
}

type Segmentation = Pick<TextAnalysis, 'units' | 'messageCount' | 'perPart' | 'charactersRemaining' | 'parts'>;

function segment(
  text: string,
  cost: (char: string) => number,
  total: number,
  singleCapacity: number,
  multiCapacity: number,
): Segmentation {
  if (total <= singleCapacity) {
    return {
      units: total,
      messageCount: 1,
      perPart: singleCapacity,
      charactersRemaining: singleCapacity - total,
      parts: [text],
    };
  }
  const parts = splitByCapacity(text, cost, multiCapacity);
  const used = [...parts[parts.length - 1]!].reduce((sum, char) => sum + cost(char), 0);
  return {
    units: total,
    messageCount: parts.length,
    perPart: multiCapacity,
    charactersRemaining: multiCapacity - used,
    parts,
  };
}

/**
 * Cuts text into parts of at most `capacity` units, `cost` giving each character's units.
 * Iterating by code point keeps surrogate pairs together; the cost keeps escape pairs together.
 */
export function splitByCapacity(text: string, cost: (char: string) => number, capacity: number): string[] {
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of text) {
    const units = cost(char);
    if (used + units > capacity) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += units;
  }
  parts.push(current);
  return parts;
}
