import {
  analyzeText,
  encodeGsm7,
  encodeUcs2,
  gsm7CharSeptets,
  nationalGsm7Charset,
  packSeptets,
  parseHexContent,
  splitByCapacity,
  ESM_CLASS_UDHI,
  type Gsm7Charset,
  type NationalShift,
} from '../../sms/encoding/index.js';
import type { OutboundSms } from '../carrier.js';
import type { SmscOptions } from './smsc-options.js';

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
const BINARY_PART_OCTETS = 134;
const NATIONAL_LANGUAGE_ID: Record<string, number> = { TR: 1, ES: 2, PT: 3 };

interface TextUnits {
  /** Encoded units of each part: septets (unpacked) or UCS-2 octets. */
  parts: Uint8Array[];
  gsm: boolean;
  national: NationalShift | undefined;
}

/**
 * A message → its submit_sm parts for one SMSC. Texts are encoded and split exactly as the API
 * counted them (`analyzeText`: 153 septets / 67 UCS-2 units per part) for 8-bit UDH and SAR; a
 * 16-bit reference UDH takes one octet more, so its parts hold 152 / 66 and a text near a boundary
 * may need one part more than the API reported. `payload` sends the whole text in one
 * message_payload TLV and lets the SMSC split it. `reference` numbers the concatenation.
 */
export function encodeSubmitParts(message: OutboundSms, options: EncodingOptions, reference: number): SubmitPart[] {
  const content = message.content;
  if ('hex' in content) return binaryParts(content, options, reference);
  const analysis = analyzeText(content.text, content.language ?? {});
  const national = analysis.nationalLanguage;
  const charset = national ? nationalGsm7Charset(national.languageCode, national.singleShift, national.lockingShift) : undefined;
  const gsm = analysis.encoding === 'GSM7';
  const encode = (text: string): Uint8Array => (gsm ? encodeGsm7(text, charset) : encodeUcs2(text));
  let texts = analysis.parts;
  if (options.longMessages === 'udh16' && texts.length > 1) texts = splitForUdh16(content.text, gsm, charset, national);
  if (options.longMessages === 'payload') texts = [content.text];
  const units: TextUnits = { parts: texts.map(encode), gsm, national };
  const dataCoding = gsm ? (message.flash ? DATA_CODING_FLASH_GSM : options.gsm7DataCoding) : message.flash ? DATA_CODING_FLASH_UCS2 : DATA_CODING_UCS2;
  return textParts(units, dataCoding, options, reference);
}

function textParts(units: TextUnits, dataCoding: number, options: EncodingOptions, reference: number): SubmitPart[] {
  const total = units.parts.length;
  const nationalIes = nationalElements(units.national);
  const concatenated = total > 1 && (options.longMessages === 'udh8' || options.longMessages === 'udh16');
  return units.parts.map((payload, index) => {
    const elements = [...nationalIes];
    if (concatenated) elements.unshift(concatElement(options.longMessages === 'udh16', reference, total, index + 1));
    const udh = userDataHeader(elements);
    const body = units.gsm && options.gsm7Packing === 'packed' ? packSeptets(payload, fillBits(udh.length)) : payload;
    const part: SubmitPart = { shortMessage: Buffer.concat([udh, body]), dataCoding, esmClass: udh.length > 0 ? ESM_CLASS_UDHI : 0, tlvs: {} };
    if (options.longMessages === 'sar' && total > 1) {
      part.tlvs = { sar_msg_ref_num: reference & 0xffff, sar_total_segments: total, sar_segment_seqnum: index + 1 };
    }
    if (options.longMessages === 'payload') {
      part.tlvs = { message_payload: part.shortMessage };
      part.shortMessage = Buffer.alloc(0);
    }
    return part;
  });
}

function binaryParts(content: { hex: string; dataCoding?: number; esmClass?: number }, options: EncodingOptions, reference: number): SubmitPart[] {
  const bytes = parseHexContent(content.hex);
  if (typeof bytes === 'string') throw new Error(bytes);
  const dataCoding = content.dataCoding ?? 0;
  const esmClass = content.esmClass ?? 0;
  const single = (payload: Uint8Array, esm = esmClass): SubmitPart => ({ shortMessage: Buffer.from(payload), dataCoding, esmClass: esm, tlvs: {} });
  if ((esmClass & ESM_CLASS_UDHI) !== 0 || bytes.length <= USER_DATA_OCTETS) return [single(bytes)];
  if (options.longMessages === 'payload') return [{ shortMessage: Buffer.alloc(0), dataCoding, esmClass, tlvs: { message_payload: Buffer.from(bytes) } }];
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += BINARY_PART_OCTETS) chunks.push(bytes.subarray(start, start + BINARY_PART_OCTETS));
  return chunks.map((chunk, index) => {
    if (options.longMessages === 'sar') {
      return { ...single(chunk), tlvs: { sar_msg_ref_num: reference & 0xffff, sar_total_segments: chunks.length, sar_segment_seqnum: index + 1 } };
    }
    const udh = userDataHeader([concatElement(options.longMessages === 'udh16', reference, chunks.length, index + 1)]);
    return single(Buffer.concat([udh, chunk]), esmClass | ESM_CLASS_UDHI);
  });
}

/** 8-bit (IEI 00) or 16-bit (IEI 08) reference concatenation element. */
function concatElement(sixteenBit: boolean, reference: number, total: number, seq: number): Buffer {
  return sixteenBit
    ? Buffer.from([0x08, 4, (reference >> 8) & 0xff, reference & 0xff, total, seq])
    : Buffer.from([0x00, 3, reference & 0xff, total, seq]);
}

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

function splitForUdh16(text: string, gsm: boolean, charset: Gsm7Charset | undefined, national: NationalShift | undefined): string[] {
  const udhOctets = 1 + 6 + nationalElements(national).reduce((n, e) => n + e.length, 0);
  const capacity = gsm ? Math.floor(((USER_DATA_OCTETS - udhOctets) * 8) / 7) : Math.floor((USER_DATA_OCTETS - udhOctets) / 2);
  const cost = (char: string): number => (gsm ? (gsm7CharSeptets(char, charset) ?? 1) : char.length);
  return splitByCapacity(text, cost, capacity);
}
