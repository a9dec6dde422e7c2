import { ESM_CLASS } from '../network/smpp/codec.js';
import { analyzeText, encodeGsm7, encodeUcs2 } from '../sms/encoding/index.js';

export type InboundSplit = 'udh8' | 'sar' | 'payload';

/** message_state TLV values by receipt stat word (SMPP 3.4 §5.2.28). */
const MESSAGE_STATE: Record<string, number> = {
  SCHEDULED: 0,
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
  SKIPPED: 9,
};

/** YYMMDDhhmm, as receipt texts write dates (UTC here). */
function receiptDate(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
}

/** What a receipt reports. */
export interface ReceiptReport {
  id: string;
  stat: string;
  err: number;
  submittedAt: number;
  doneAt: number;
  /** The receipt text's `text:` field: the start of the message. */
  excerpt: string;
}

/**
 * The first 20 characters of a message for the receipt's `text:` field, which travels as Latin-1:
 * other characters and control characters become '?'.
 */
export function receiptExcerpt(text: string): string {
  return [...text].slice(0, 20).join('').replace(/[^\x20-\x7e\xa0-\xff]/gu, '?');
}

/** The deliver_sm fields of a receipt for a submit, in the conventional text and/or TLVs. */
export function receiptFields(submit: Record<string, unknown>, report: ReceiptReport, style: 'text+tlv' | 'text' | 'tlv', esmClass: number): Record<string, unknown> {
  const { id, stat, err } = report;
  const fields: Record<string, unknown> = {
    source_addr_ton: submit.dest_addr_ton ?? 0,
    source_addr_npi: submit.dest_addr_npi ?? 0,
    source_addr: submit.destination_addr ?? '',
    dest_addr_ton: submit.source_addr_ton ?? 0,
    dest_addr_npi: submit.source_addr_npi ?? 0,
    destination_addr: submit.source_addr ?? '',
    esm_class: esmClass,
    data_coding: 0,
    short_message: Buffer.alloc(0),
  };
  if (style !== 'tlv') {
    const delivered = stat === 'DELIVRD' ? '001' : '000';
    const dates = `submit date:${receiptDate(report.submittedAt)} done date:${receiptDate(report.doneAt)}`;
    const text = `id:${id} sub:001 dlvrd:${delivered} ${dates} stat:${stat} err:${String(err).padStart(3, '0')} text:${report.excerpt}`;
    fields.short_message = Buffer.from(text, 'latin1');
  }
  if (style !== 'text') {
    fields.receipted_message_id = id;
    fields.message_state = MESSAGE_STATE[stat] ?? MESSAGE_STATE.UNKNOWN;
  }
  return fields;
}

/**
 * A mobile-originated text as deliver_sm fields: GSM 03.38 (one septet per octet, data_coding 0)
 * when it fits the alphabet, else UCS-2 (8); a long text split as a handset would, carried by
 * 8-bit UDH, SAR TLVs, or whole in message_payload.
 */
export function inboundParts(message: { from: string; to: string; text: string }, reference: number, split: InboundSplit): Array<Record<string, unknown>> {
  const analysis = analyzeText(message.text);
  const gsm = analysis.encoding === 'GSM7';
  const encode = (text: string): Buffer => Buffer.from(gsm ? encodeGsm7(text) : encodeUcs2(text));
  const base = {
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: message.from,
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: message.to,
    esm_class: 0,
    data_coding: gsm ? 0 : 8,
  };
  const parts = analysis.parts;
  if (parts.length === 1) return [{ ...base, short_message: encode(message.text) }];
  if (split === 'payload') return [{ ...base, short_message: Buffer.alloc(0), message_payload: encode(message.text) }];
  return parts.map((text, index) => {
    if (split === 'sar') {
      return { ...base, short_message: encode(text), sar_msg_ref_num: reference, sar_total_segments: parts.length, sar_segment_seqnum: index + 1 };
    }
    const udh = Buffer.from([5, 0x00, 3, reference & 0xff, parts.length, index + 1]);
    return { ...base, esm_class: ESM_CLASS.UDHI, short_message: Buffer.concat([udh, encode(text)]) };
  });
}
