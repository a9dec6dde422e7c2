/** Outcome of checking one `to`: the number to store, or why the destination is rejected. */
export type DestinationCheck = { ok: true; number: string } | { ok: false; reason: 'MISSING_TO' | 'REJECTED_DESTINATION' };

const PLAIN_NUMBER = /^\d{3,15}$/;
const SEPARATORS = /[\s-]/g;

/**
 * A destination is a phone number in international form: after dropping one leading `+`, spaces
 * and dashes, 3 to 15 digits (15 is the E.164 maximum; 3 admits short codes). Alphanumeric
 * destinations are rejected. The stored number is the bare digits, so logs filters, reports and
 * carriers see one form whatever the caller typed; the response echoes the caller's `to`.
 */
export function checkDestination(to: string): DestinationCheck {
  if (PLAIN_NUMBER.test(to)) return { ok: true, number: to };
  const trimmed = to.trim();
  if (trimmed === '') return { ok: false, reason: 'MISSING_TO' };
  const digits = (trimmed.startsWith('+') ? trimmed.slice(1) : trimmed).replace(SEPARATORS, '');
  return PLAIN_NUMBER.test(digits) ? { ok: true, number: digits } : { ok: false, reason: 'REJECTED_DESTINATION' };
}
