import type { TextContent } from '../../core/store/types.js';
import {
  analyzeText,
  encodeGsm7,
  encodeUcs2,
  gsm7CharSeptets,
  isTransliterationCode,
  nationalGsm7Charset,
  packSeptets,
  parseHexContent,
  splitByCapacity,
  transliterate,
  ESM_CLASS_UDHI,
  type Gsm7Charset,
  type NationalShift,
} from '../../sms/encoding/index.js';
import type { OutboundMessage } from '../carrier.js';
import type { SmscOptions } from './smsc-options.js';
import { isRcsContent } from '../../core/store/message-content.js';

/** One submit_sm's worth of a message. */
export interface SubmitPart {
  shortMessage: Buffer;
  dataCoding: number;
  esmClass: number;
  /** TLVs by their SMPP names (sar_*, message_payload). */
  tlvs: Record<string, number | Buffer>;
}

export type EncodingOptions = Pick<SmscOptions, 'longMessages' | 'gsm7Packing' | 'gsm7DataCoding'>;

const DATA_CODING_UCS2 = 0x08;
/** Message class 0 ("flash") with the GSM default alphabet / with UCS-2. */
const DATA_CODING_FLASH_GSM = 0x10;
const DATA_CODING_FLASH_UCS2 = 0x18;
const USER_DATA_OCTETS = 140;
const UDH_LENGTH_OCTETS = 1;
const CONCAT8_IE_OCTETS = 5;
const CONCAT16_IE_OCTETS = 6;
/** National Language Identifier values (3GPP TS 23.038 §6.2.1.2.4). */
const NATIONAL_LANGUAGE_ID: Record<string, number> = { TR: 1, ES: 2, PT: 3 };
const CR_SEPTET = 0x0d;

interface EncodedText {
  /** Encoded units of each part: unpacked septets or UCS-2 octets. */
  parts: Uint8Array[];
  gsm: boolean;
  national: NationalShift | undefined;
  dataCoding: number;
}

/**
 * A message → its submit_sm parts for one SMSC. Texts are encoded and split exactly as the API
 * counted them (`analyzeText`: 153 septets / 67 UCS-2 units per part) for 8-bit UDH and SAR.
 * A 16-bit reference UDH takes one octet more, so its parts hold 152 / 66 and a text near a part
 * boundary may then need one part more than the API reported. `payload` sends the whole text in
 * one message_payload TLV and lets the SMSC split it. `reference` numbers the concatenation.
 */
export function encodeSubmitParts(message: OutboundMessage, options: EncodingOptions, reference: number): SubmitPart[] {
  const content = message.content;
  // Routing gives SMSCs SMS only.
  if (isRcsContent(content)) throw new Error(`message ${message.messageId} carries RCS content, not an SMS`);
  if ('hex' in content) return binaryParts(content, options, reference);
  return textParts(encodeText(content, message.flash, options), options, reference);
}

/** The text as the API counted it: transliterated the same way, then segmented with the same options. */
function encodeText(content: TextContent, flash: boolean, options: EncodingOptions): EncodedText {
  const code = content.transliteration;
  // Stored texts are already transliterated; doing it again changes nothing (GSM characters are never touched).
  const text = code !== undefined && isTransliterationCode(code) ? transliterate(content.text, code) : content.text;
  const analysis = analyzeText(text, content.language ?? {});
  const national = analysis.nationalLanguage;
  const charset = national ? nationalGsm7Charset(national.languageCode, national.singleShift, national.lockingShift) : undefined;
  const gsm = analysis.encoding === 'GSM7';
  let texts = analysis.parts;
  if (options.longMessages === 'payload') texts = [text];
  else if (options.longMessages === 'udh16' && texts.length > 1) texts = splitForUdh16(text, gsm, charset, national);
  const dataCoding = gsm ? (flash ? DATA_CODING_FLASH_GSM : options.gsm7DataCoding) : flash ? DATA_CODING_FLASH_UCS2 : DATA_CODING_UCS2;
  return { parts: texts.map((t) => (gsm ? encodeGsm7(t, charset) : encodeUcs2(t))), gsm, national, dataCoding };
}

function textParts(text: EncodedText, options: EncodingOptions, reference: number): SubmitPart[] {
  const total = text.parts.length;
  const udhConcat = total > 1 && (options.longMessages === 'udh8' || options.longMessages === 'udh16');
  return text.parts.map((units, index) => {
    // National language IEs travel even in a message_payload: without them the septets cannot be read.
    const elements = nationalElements(text.national);
    if (udhConcat) elements.unshift(concatElement(options.longMessages === 'udh16', reference, total, index + 1));
    const udh = userDataHeader(elements);
    const body = text.gsm && options.gsm7Packing === 'packed' ? packText(units, fillBits(udh.length)) : units;
    const userData = Buffer.concat([udh, body]);
    const esmClass = udh.length > 0 ? ESM_CLASS_UDHI : 0;
    if (options.longMessages === 'payload') return { shortMessage: Buffer.alloc(0), dataCoding: text.dataCoding, esmClass, tlvs: { message_payload: userData } };
    const tlvs = options.longMessages === 'sar' && total > 1 ? sarTlvs(reference, total, index + 1) : {};
    return { shortMessage: userData, dataCoding: text.dataCoding, esmClass, tlvs };
  });
}

/**
 * Binary content goes as given when it fits one part or carries its own UDH (esm_class UDHI).
 * Longer payloads are cut where the API counted them (134 octets, room for an 8-bit concatenation
 * UDH); with `udh16` the header is one octet longer, so parts hold 133 octets.
 */
function binaryParts(content: { hex: string; dataCoding?: number; esmClass?: number }, options: EncodingOptions, reference: number): SubmitPart[] {
  const bytes = parseHexContent(content.hex);
  if (typeof bytes === 'string') throw new Error(bytes);
  const dataCoding = content.dataCoding ?? 0;
  const esmClass = content.esmClass ?? 0;
  const part = (userData: Uint8Array, esm: number, tlvs: SubmitPart['tlvs'] = {}): SubmitPart => ({ shortMessage: Buffer.from(userData), dataCoding, esmClass: esm, tlvs });
  if ((esmClass & ESM_CLASS_UDHI) !== 0 || bytes.length <= USER_DATA_OCTETS) return [part(bytes, esmClass)];
  if (options.longMessages === 'payload') return [part(Buffer.alloc(0), esmClass, { message_payload: Buffer.from(bytes) })];
  const sixteenBit = options.longMessages === 'udh16';
  const size = USER_DATA_OCTETS - UDH_LENGTH_OCTETS - (sixteenBit ? CONCAT16_IE_OCTETS : CONCAT8_IE_OCTETS);
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks.map((chunk, index) => {
    if (options.longMessages === 'sar') return part(chunk, esmClass, sarTlvs(reference, chunks.length, index + 1));
    const udh = userDataHeader([concatElement(sixteenBit, reference, chunks.length, index + 1)]);
    return part(Buffer.concat([udh, chunk]), esmClass | ESM_CLASS_UDHI);
  });
}

function sarTlvs(reference: number, total: number, seq: number): SubmitPart['tlvs'] {
  return { sar_msg_ref_num: reference & 0xffff, sar_total_segments: total, sar_segment_seqnum: seq };
}

/** 8-bit (IEI 00) or 16-bit (IEI 08) reference concatenation element. */
function concatElement(sixteenBit: boolean, reference: number, total: number, seq: number): Buffer {
  return sixteenBit
    ? Buffer.from([0x08, 4, (reference >> 8) & 0xff, reference & 0xff, total, seq])
    : Buffer.from([0x00, 3, reference & 0xff, total, seq]);
}

/** Single (IEI 24) and locking (IEI 25) shift elements naming the national table the septets use. */
function nationalElements(national: NationalShift | undefined): Buffer[] {
  if (!national) return [];
  const language = NATIONAL_LANGUAGE_ID[national.languageCode]!;
  const out: Buffer[] = [];
  if (national.singleShift) out.push(Buffer.from([0x24, 1, language]));
  if (national.lockingShift) out.push(Buffer.from([0x25, 1, language]));
  return out;
}

function userDataHeader(elements: Buffer[]): Buffer {
  if (elements.length === 0) return Buffer.alloc(0);
  const body = Buffer.concat(elements);
  return Buffer.concat([Buffer.from([body.length]), body]);
}

/** Bits that align packed septets after a UDH of `udhOctets` octets to a septet boundary. */
export function fillBits(udhOctets: number): number {
  return (7 - ((udhOctets * 8) % 7)) % 7;
}

/**
 * Packs septets. Seven spare bits at the end would read as a final '@', so they carry a CR that
 * readers drop; a text that itself ends in CR on an octet boundary therefore gets a second CR so
 * its own is not taken for padding (3GPP TS 23.038 §6.1.2.3.1).
 */
function packText(septets: Uint8Array, fill: number): Uint8Array {
  const bits = fill + septets.length * 7;
  const spare = (8 - (bits % 8)) % 8;
  const endsInCr = septets.length > 0 && septets[septets.length - 1] === CR_SEPTET;
  const padded = spare === 7 || (spare === 0 && endsInCr) ? Uint8Array.of(...septets, CR_SEPTET) : septets;
  return packSeptets(padded, fill);
}

function splitForUdh16(text: string, gsm: boolean, charset: Gsm7Charset | undefined, national: NationalShift | undefined): string[] {
  const udhOctets = UDH_LENGTH_OCTETS + CONCAT16_IE_OCTETS + nationalElements(national).reduce((n, e) => n + e.length, 0);
  const capacity = gsm ? Math.floor(((USER_DATA_OCTETS - udhOctets) * 8) / 7) : Math.floor((USER_DATA_OCTETS - udhOctets) / 2);
  const cost = (char: string): number => (gsm ? (gsm7CharSeptets(char, charset) ?? 1) : char.length);
  return splitByCapacity(text, cost, capacity);
}
