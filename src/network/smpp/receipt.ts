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

/** A matched key as stored: lower case, `_` read as a space. */
function keyName(matched: string): string {
  const key = matched.toLowerCase();
  return key === 'submit_date' ? 'submit date' : key === 'done_date' ? 'done date' : key;
}

/**
 * Key → value; a value runs to the next key, and `text:` to the end. Keys are lower-cased with a
 * space. Read once per receipt: each value is cut as the next key is found.
 */
function receiptFields(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const pattern = KEY_PATTERN;
  pattern.lastIndex = 0;
  let key: string | undefined;
  let valueStart = 0;
  const keep = (end: number): void => {
    if (key === undefined || values.has(key)) return;
    const raw = text.slice(valueStart, end);
    values.set(key, key === 'text' ? raw : raw.trim());
  };
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    keep(match.index);
    key = keyName(match[1]!);
    valueStart = match.index + match[0].length;
    // The message text may contain anything, "stat:" included: nothing after it is a field.
    if (key === 'text') break;
  }
  keep(text.length);
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
  if (value === undefined || (value.length !== 10 && value.length !== 12)) return undefined;
  const yy = twoDigits(value, 0);
  const mo = twoDigits(value, 2);
  const dd = twoDigits(value, 4);
  const hh = twoDigits(value, 6);
  const mi = twoDigits(value, 8);
  const ss = value.length === 12 ? twoDigits(value, 10) : 0;
  if (yy < 0 || mo < 1 || mo > 12 || dd < 1 || hh < 0 || hh > 23 || mi < 0 || mi > 59 || ss < 0 || ss > 59) return undefined;
  const monthStart = Date.UTC(2000 + yy, mo - 1, 1);
  if (dd > (Date.UTC(2000 + yy, mo, 1) - monthStart) / DAY_MS) return undefined;
  return Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss);
}

const DAY_MS = 86_400_000;

/** The number written by the two decimal digits at `at`, or -1. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}
