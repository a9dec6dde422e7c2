import { ESM_CLASS } from './codec.js';

/** What an SMSC delivery receipt says, from its text and its TLVs. */
export interface ParsedReceipt {
  id: string;
  /** DELIVRD, UNDELIV, ENROUTE, … (upper case). */
  stat: string;
  /** The `err:` field (often a GSM MAP error code), when present. */
  err?: string;
  /** esm_class said "intermediate delivery notification". */
  intermediate: boolean;
  submitDate?: number;
  doneDate?: number;
}

/** message_state TLV values (SMPP 3.4 §5.2.28) → the receipt text's stat words. */
const STATE_WORDS = ['SCHEDULED', 'ENROUTE', 'DELIVRD', 'EXPIRED', 'DELETED', 'UNDELIV', 'ACCEPTD', 'UNKNOWN', 'REJECTD', 'SKIPPED'];

/** A deliver_sm / data_sm is a receipt when its esm_class says so, or when it names the message it reports on. */
export function isReceipt(fields: Record<string, unknown>): boolean {
  const type = Number(fields.esm_class ?? 0) & ESM_CLASS.TYPE_MASK;
  return type === ESM_CLASS.MC_DELIVERY_RECEIPT || type === ESM_CLASS.INTERMEDIATE_NOTIFICATION || fields.receipted_message_id !== undefined;
}

/**
 * Reads a receipt: the TLVs (receipted_message_id, message_state, network_error_code) when present,
 * else the conventional text `id:… sub:… dlvrd:… submit date:YYMMDDhhmm done date:… stat:… err:… text:…`
 * (keys in any case). Undefined when no message id can be found.
 */
export function parseReceipt(fields: Record<string, unknown>): ParsedReceipt | undefined {
  const body = Buffer.isBuffer(fields.short_message) && fields.short_message.length > 0 ? fields.short_message : fields.message_payload;
  const text = Buffer.isBuffer(body) ? body.toString('latin1') : '';
  const values = receiptFields(text);
  const tlvId = typeof fields.receipted_message_id === 'string' ? fields.receipted_message_id.replace(/\0+$/, '') : undefined;
  const id = tlvId || values.get('id');
  if (!id) return undefined;
  const state = typeof fields.message_state === 'number' ? STATE_WORDS[fields.message_state] : undefined;
  const receipt: ParsedReceipt = {
    id,
    stat: (values.get('stat') ?? state ?? 'UNKNOWN').toUpperCase(),
    intermediate: (Number(fields.esm_class ?? 0) & ESM_CLASS.TYPE_MASK) === ESM_CLASS.INTERMEDIATE_NOTIFICATION,
  };
  const err = values.get('err') ?? networkError(fields.network_error_code);
  if (err !== undefined) receipt.err = err;
  const submitDate = receiptDate(values.get('submit date'));
  if (submitDate !== undefined) receipt.submitDate = submitDate;
  const doneDate = receiptDate(values.get('done date'));
  if (doneDate !== undefined) receipt.doneDate = doneDate;
  return receipt;
}

const KEYS = ['id', 'sub', 'dlvrd', 'submit date', 'done date', 'stat', 'err', 'text'];

function receiptFields(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const pattern = new RegExp(`(?:^|\\s)(${KEYS.join('|')}):`, 'gi');
  const marks: Array<{ key: string; start: number; end: number }> = [];
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    marks.push({ key: match[1]!.toLowerCase(), start: match.index, end: match.index + match[0].length });
    // `text:` runs to the end: nothing after it is a field.
    if (match[1]!.toLowerCase() === 'text') break;
  }
  marks.forEach((mark, i) => {
    const next = marks[i + 1];
    const raw = text.slice(mark.end, next ? next.start : text.length);
    if (!values.has(mark.key)) values.set(mark.key, mark.key === 'text' ? raw : raw.trim());
  });
  return values;
}

/** network_error_code TLV: network type, then a 2-octet error code. */
function networkError(value: unknown): string | undefined {
  if (!Buffer.isBuffer(value) || value.length < 3) return undefined;
  return String(value.readUInt16BE(1));
}

function receiptDate(value: string | undefined): number | undefined {
  const match = value ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/.exec(value) : null;
  if (!match) return undefined;
  const [, yy, mo, dd, hh, mi, ss] = match;
  return Date.UTC(2000 + Number(yy), Number(mo) - 1, Number(dd), Number(hh), Number(mi), Number(ss ?? 0));
}
