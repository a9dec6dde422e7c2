/**
 * Keyword extraction for inbound SMS. Infobip matches keywords configured on the receiving number; we
 * have no keyword configuration, so the rule is fixed: when the text starts with a word made only of
 * letters and digits, that word upper-cased is the keyword and `cleanText` is the rest, trimmed
 * ("stop please" → STOP / "please"; "STOP" → STOP / ""). Any other text has no keyword and `cleanText`
 * is the whole text trimmed.
 */
const LEADING_WORD = /^\s*([\p{L}\p{N}]+)(?:\s+([\s\S]*))?$/u;

export function splitKeyword(text: string): { keyword?: string; cleanText: string } {
  const match = LEADING_WORD.exec(text);
  if (!match) return { cleanText: text.trim() };
  return { keyword: match[1]!.toUpperCase(), cleanText: (match[2] ?? '').trim() };
}
