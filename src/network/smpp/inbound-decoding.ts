import { decodeGsm7, decodeUcs2, nationalGsm7Charset, unpackSeptets, type Gsm7Charset, type NationalLanguage } from '../../sms/encoding/index.js';
import { ESM_CLASS } from './codec.js';
import { withFields } from '../../core/with-fields.js';

/** Where one part of a concatenated message belongs. */
export interface ConcatInfo {
  reference: number;
  total: number;
  seq: number;
  /** The same for every part of one message: sender, recipient, reference and part count. */
  key: string;
}

/** A mobile-originated deliver_sm (or one part of a concatenated one), decoded. */
export interface InboundPart {
  /** Addresses as the SMSC gave them (no '+' added). */
  from: string;
  to: string;
  text: string;
  concat?: ConcatInfo;
}

const LANGUAGES: Record<number, NationalLanguage> = { 1: 'TR', 2: 'ES', 3: 'PT' };
const CR_SEPTET = 0x0d;

/** How the user data is read, from data_coding. */
type Alphabet = 'gsm' | 'latin1' | 'ucs2' | 'binary';

/**
 * Decodes an inbound deliver_sm/data_sm: its UDH (concatenation with an 8- or 16-bit reference,
 * national language shifts) or SAR TLVs, and its text by data_coding — 0 and 1 GSM 03.38, 3
 * Latin-1, 8 UCS-2 (and the GSM message class / waiting indication groups that name one of these).
 * Other codings are binary and become their hex digits.
 *
 * SMSCs nearly always pass GSM text over SMPP one septet per octet; packed septets are rare. They
 * are read as packed when the SMSC is configured so (`gsm7Packed`) or when an octet above 0x7F
 * shows the text cannot be unpacked septets.
 *
 * Throws when the UDH does not hold together (longer than the user data, an element running past
 * it): such a PDU cannot be read however often it is sent, so the caller refuses it for good.
 */
export function decodeInboundPart(fields: Record<string, unknown>, gsm7Packed = false): InboundPart {
  const short = Buffer.isBuffer(fields.short_message) ? fields.short_message : Buffer.alloc(0);
  const body = short.length === 0 && Buffer.isBuffer(fields.message_payload) ? fields.message_payload : short;
  const hasUdh = (Number(fields.esm_class ?? 0) & ESM_CLASS.UDHI) !== 0 && body.length > 0;
  const udhLength = hasUdh ? body[0]! + 1 : 0;
  if (udhLength > body.length) throw new Error(`UDH of ${udhLength} octets in ${body.length} octets of user data`);
  const header = hasUdh ? readUdh(body.subarray(1, udhLength)) : {};
  const payload = body.subarray(udhLength);
  const from = typeof fields.source_addr === 'string' ? fields.source_addr : '';
  const to = typeof fields.destination_addr === 'string' ? fields.destination_addr : '';
  const part: InboundPart = { from, to, text: decodeText(payload, alphabetOf(Number(fields.data_coding ?? 0)), header.charset, gsm7Packed, udhLength) };
  const concat = header.concat ?? sarConcat(fields);
  // A lone part, or numbering that cannot be right, is taken as a message of its own.
  if (concat && concat.total > 1 && concat.seq >= 1 && concat.seq <= concat.total) {
    part.concat = withFields(concat, { key: [from, to, concat.reference, concat.total].join('\u0000') });
  }
  return part;
}

type Numbering = Omit<ConcatInfo, 'key'>;

interface Udh {
  concat?: Numbering;
  charset?: Gsm7Charset;
}

function readUdh(elements: Buffer): Udh {
  const udh: Udh = {};
  let single: NationalLanguage | undefined;
  let locking: NationalLanguage | undefined;
  for (let i = 0; i + 1 < elements.length; ) {
    const iei = elements[i]!;
    const length = elements[i + 1]!;
    const data = elements.subarray(i + 2, i + 2 + length);
    if (data.length < length) throw new Error(`UDH element 0x${iei.toString(16)} runs past the header`);
    if (iei === 0x00 && length === 3) udh.concat = { reference: data[0]!, total: data[1]!, seq: data[2]! };
    else if (iei === 0x08 && length === 4) udh.concat = { reference: data.readUInt16BE(0), total: data[2]!, seq: data[3]! };
    else if (iei === 0x24 && length === 1) single = LANGUAGES[data[0]!];
    else if (iei === 0x25 && length === 1) locking = LANGUAGES[data[0]!];
    i += 2 + length;
  }
  const language = locking ?? single;
  if (language) {
    const charset = nationalGsm7Charset(language, single !== undefined, locking !== undefined);
    if (charset) udh.charset = charset;
  }
  return udh;
}

function sarConcat(fields: Record<string, unknown>): Numbering | undefined {
  const { sar_msg_ref_num: reference, sar_total_segments: total, sar_segment_seqnum: seq } = fields;
  if (typeof reference !== 'number' || typeof total !== 'number' || typeof seq !== 'number') return undefined;
  return { reference, total, seq };
}

function decodeText(payload: Buffer, alphabet: Alphabet, charset: Gsm7Charset | undefined, gsm7Packed: boolean, udhOctets: number): string {
  switch (alphabet) {
    case 'gsm':
      return decodeGsm7(gsm7Packed || payload.some((octet) => octet > 0x7f) ? unpackText(payload, udhOctets) : payload, charset);
    case 'latin1':
      return payload.toString('latin1');
    case 'ucs2':
      return decodeUcs2(payload);
    case 'binary':
      return payload.toString('hex').toUpperCase();
  }
}

/** Packed septets after a UDH of `udhOctets`; a CR filling the last seven bits is padding (3GPP TS 23.038 §6.1.2.3.1). */
function unpackText(payload: Buffer, udhOctets: number): Uint8Array {
  const fill = (7 - ((udhOctets * 8) % 7)) % 7;
  const septets = unpackSeptets(payload, undefined, fill);
  const endsOnOctet = fill + septets.length * 7 === payload.length * 8;
  return endsOnOctet && septets[septets.length - 1] === CR_SEPTET ? septets.subarray(0, -1) : septets;
}

/**
 * SMPP's own values below 0x10; above, the GSM 03.38 coding groups: general data coding
 * (0x00–0x7F, uncompressed only), message waiting indication (0xC0–0xEF) and message class (0xF0–0xFF).
 */
function alphabetOf(dataCoding: number): Alphabet {
  if (dataCoding < 0x10) return dataCoding <= 1 ? 'gsm' : dataCoding === 3 ? 'latin1' : dataCoding === 8 ? 'ucs2' : 'binary';
  if (dataCoding < 0x80) {
    if ((dataCoding & 0x20) !== 0) return 'binary';
    const bits = (dataCoding >> 2) & 0x03;
    return bits === 0 ? 'gsm' : bits === 2 ? 'ucs2' : 'binary';
  }
  if (dataCoding >= 0xc0 && dataCoding < 0xe0) return 'gsm';
  if (dataCoding >= 0xe0 && dataCoding < 0xf0) return 'ucs2';
  if (dataCoding >= 0xf0) return (dataCoding & 0x04) === 0 ? 'gsm' : 'binary';
  return 'binary';
}
