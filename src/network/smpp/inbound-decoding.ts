import { decodeGsm7, decodeUcs2, nationalGsm7Charset, unpackSeptets, type Gsm7Charset, type NationalLanguage } from '../../sms/encoding/index.js';
import { ESM_CLASS } from './codec.js';

/** A mobile-originated deliver_sm (or one part of a concatenated one), decoded. */
export interface InboundPart {
  from: string;
  to: string;
  text: string;
  concat?: { reference: number; total: number; seq: number };
}

const LANGUAGES: Record<number, NationalLanguage> = { 1: 'TR', 2: 'ES', 3: 'PT' };

/**
 * Decodes an inbound deliver_sm/data_sm: its UDH (concatenation with an 8- or 16-bit reference,
 * national language shifts) or SAR TLVs, and its text by data_coding — 0 and 1 GSM 03.38 (one septet
 * per octet, how SMSCs pass it over SMPP; packed only when `gsm7Packed`), 3 Latin-1, 8 UCS-2.
 * Other codings are binary and become their hex digits.
 */
export function decodeInboundPart(fields: Record<string, unknown>, gsm7Packed = false): InboundPart {
  const short = Buffer.isBuffer(fields.short_message) ? fields.short_message : Buffer.alloc(0);
  const body = short.length === 0 && Buffer.isBuffer(fields.message_payload) ? fields.message_payload : short;
  const hasUdh = (Number(fields.esm_class ?? 0) & ESM_CLASS.UDHI) !== 0 && body.length > 0;
  const udhLength = hasUdh ? Math.min(body.length, body[0]! + 1) : 0;
  const header = hasUdh ? readUdh(body.subarray(1, udhLength)) : {};
  const payload = body.subarray(udhLength);
  const part: InboundPart = {
    from: typeof fields.source_addr === 'string' ? fields.source_addr : '',
    to: typeof fields.destination_addr === 'string' ? fields.destination_addr : '',
    text: decodeText(payload, Number(fields.data_coding ?? 0), header.charset, gsm7Packed, udhLength),
  };
  const concat = header.concat ?? sarConcat(fields);
  if (concat && concat.total > 1) part.concat = concat;
  return part;
}

interface Udh {
  concat?: InboundPart['concat'];
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
    if (iei === 0x00 && length === 3) udh.concat = { reference: data[0]!, total: data[1]!, seq: data[2]! };
    else if (iei === 0x08 && length === 4) udh.concat = { reference: data.readUInt16BE(0), total: data[2]!, seq: data[3]! };
    else if (iei === 0x24 && length === 1) single = LANGUAGES[data[0]!];
    else if (iei === 0x25 && length === 1) locking = LANGUAGES[data[0]!];
    i += 2 + length;
  }
  const language = locking ?? single;
  if (language) udh.charset = nationalGsm7Charset(language, single !== undefined, locking !== undefined);
  return udh;
}

function sarConcat(fields: Record<string, unknown>): InboundPart['concat'] | undefined {
  const { sar_msg_ref_num: reference, sar_total_segments: total, sar_segment_seqnum: seq } = fields;
  if (typeof reference !== 'number' || typeof total !== 'number' || typeof seq !== 'number') return undefined;
  return { reference, total, seq };
}

function decodeText(payload: Buffer, dataCoding: number, charset: Gsm7Charset | undefined, packed: boolean, udhOctets: number): string {
  const coding = dataCoding & 0xf0 ? groupCoding(dataCoding) : dataCoding;
  if (coding === 0 || coding === 1) {
    const septets = packed ? unpackSeptets(payload, undefined, (7 - ((udhOctets * 8) % 7)) % 7) : payload;
    return decodeGsm7(septets, charset);
  }
  if (coding === 3) return payload.toString('latin1');
  if (coding === 8) return decodeUcs2(payload);
  return payload.toString('hex').toUpperCase();
}

/** Data coding groups 0x1X/0xFX (message classes): their alphabet bits. */
function groupCoding(dataCoding: number): number {
  const alphabet = (dataCoding >> 2) & 0x03;
  if ((dataCoding & 0xc0) === 0x00 || (dataCoding & 0xf0) === 0xf0) return alphabet === 0 ? 0 : alphabet === 2 ? 8 : 4;
  return 4;
}
