import type { MessageIdFormat } from './smsc-options.js';

/**
 * One form for an SMSC message id wherever it is seen, so a hexadecimal submit_sm_resp id meets
 * the decimal id of its receipt (or the reverse), and case or leading zeros never matter: numeric
 * formats become the decimal value, text is trimmed and lower-cased. An id that does not parse in
 * the expected format falls back to its text form.
 */
export function canonicalMessageId(id: string, format: MessageIdFormat): string {
  const trimmed = id.trim();
  if (format === 'hex' && /^(0x)?[0-9a-f]+$/i.test(trimmed)) return BigInt(trimmed.startsWith('0x') || trimmed.startsWith('0X') ? trimmed : `0x${trimmed}`).toString(10);
  if (format === 'decimal' && /^\d+$/.test(trimmed)) return BigInt(trimmed).toString(10);
  return trimmed.toLowerCase();
}
