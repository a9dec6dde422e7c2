import { ESM_CLASS } from './codec.js';

/** What an SMSC delivery receipt says, from its text and its TLVs. */
export interface ParsedReceipt {
  id: string;
  /** DELIVRD, UNDELIV, ENROUTE, … (upper case). */
  stat: string;
  /** The `err:` field (often a GSM MAP error code), or the network_error_code TLV's code, in decimal. */
  err?: string;
  /** Parts submitted (`sub:`) and delivered (`dlvrd:`) as the SMSC wrote them, e.g. "001". */
  sub?: string;
  dlvrd?: string;
  /** esm_class said "intermediate delivery notification". */
  intermediate: boolean;
  /** `submit date:` / `done date:` (YYMMDDhhmm[ss], read as UTC) in epoch ms. */
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
 * Reads a receipt from the conventional text `id:… sub:… dlvrd:… submit date:YYMMDDhhmm done date:…
 * stat:… err:… text:…` (ASCII, keys in any case, in short_message or message_payload) and the TLVs
 * receipted_message_id, message_state and network_error_code. The id TLV wins over the text's id;
 * the text's stat and err win over message_state and network_error_code. Missing fields stay
 * undefined, except `stat`, which is UNKNOWN when neither names a state. Undefined when no
 * message id can be found; junk never throws.
 */
export function parseReceipt(fields: Record<string, unknown>): ParsedReceipt | undefined {
  const body = Buffer.isBuffer(fields.short_message) && fields.short_message.length > 0 ? fields.short_message : fields.message_payload;
  const values = receiptFields(Buffer.isBuffer(body) ? body.toString('latin1') : '');
  const id = tlvString(fields.receipted_message_id) || values.get('id');
  if (!id) return undefined;
  const state = typeof fields.message_state === 'number' ? STATE_WORDS[fields.message_state] : undefined;
  const receipt: ParsedReceipt = {
    id,
    stat: (values.get('stat') || state || 'UNKNOWN').toUpperCase(),
    intermediate: (Number(fields.esm_class ?? 0) & ESM_CLASS.TYPE_MASK) === ESM_CLASS.INTERMEDIATE_NOTIFICATION,
  };
  const err = values.get('err') || networkError(fields.network_error_code);
  if (err) receipt.err = err;
  const sub = values.get('sub');
  if (sub) receipt.sub = sub;
  const dlvrd = values.get('dlvrd');
  if (dlvrd) receipt.dlvrd = dlvrd;
  const submitDate = receiptDate(values.get('submit date'));
  if (submitDate !== undefined) receipt.submitDate = submitDate;
  const doneDate = receiptDate(values.get('done date'));
  if (doneDate !== undefined) receipt.doneDate = doneDate;
  return receipt;
}

const KEYS = ['id', 'sub', 'dlvrd', 'submit[ _]date', 'done[ _]date', 'stat', 'err', 'text'];
/** Built once: a new one per receipt was about a third of the cost of reading it. Stateful (lastIndex), reset per use. */
const KEY_PATTERN = new RegExp(`(?:^|\\s)(${KEYS.join('|')}):`, 'gi');

/** Key → value; a value runs to the next key, and `text:` to the end. Keys are lower-cased with a space. */
function receiptFields(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const pattern = KEY_PATTERN;
  pattern.lastIndex = 0;
  const marks: Array<{ key: string; start: number; end: number }> = [];
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const key = match[1]!.toLowerCase().replace('_', ' ');
    marks.push({ key, start: match.index, end: match.index + match[0].length });
    // The message text may contain anything, "stat:" included: nothing after it is a field.
    if (key === 'text') break;
  }
  marks.forEach((mark, i) => {
    const next = marks[i + 1];
    const raw = text.slice(mark.end, next ? next.start : text.length);
    if (!values.has(mark.key)) values.set(mark.key, mark.key === 'text' ? raw : raw.trim());
  });
  return values;
}

/** A C-octet string TLV as the codec hands it (string, or raw bytes), without trailing NULs. */
function tlvString(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('latin1') : undefined;
  return text?.replace(/\0+$/, '').trim();
}

/** network_error_code TLV: network type (1 octet), then the error code in the last 2 octets. */
function networkError(value: unknown): string | undefined {
  if (!Buffer.isBuffer(value) || value.length < 3) return undefined;
  return String(value.readUInt16BE(value.length - 2));
}

/** YYMMDDhhmm or YYMMDDhhmmss, read as UTC; undefined when it is not a real date and time. */
function receiptDate(value: string | undefined): number | undefined {
  const match = value ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/.exec(value) : null;
  if (!match) return undefined;
  const [yy, mo, dd, hh, mi, ss] = match.slice(1).map((digits) => Number(digits ?? 0)) as [number, number, number, number, number, number];
  const at = Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss);
  const date = new Date(at);
  const exact = date.getUTCMonth() === mo - 1 && date.getUTCDate() === dd && date.getUTCHours() === hh && date.getUTCMinutes() === mi && date.getUTCSeconds() === ss;
  return exact ? at : undefined;
}
