/**
 * Infobip's wire timestamp: `2025-03-04T10:15:30.000+0000` on output; on input also `+00:00`, `Z`,
 * 0/3/6 fraction digits, and no offset at all (read as UTC).
 */
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function formatInfobipTime(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` +
    `.${pad(d.getUTCMilliseconds(), 3)}+0000`
  );
}

const INPUT =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Returns epoch ms, or undefined when the text is not a timestamp in an accepted form. */
export function parseInfobipTime(text: string): number | undefined {
  const m = INPUT.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '0', frac = '0', offset] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  // Date.UTC would read years 0–99 as 1900–1999; nothing in this API predates 1970.
  if (Number(y) < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return undefined;
  }
  const millis = Math.floor(Number(`0.${frac}`) * 1000);
  let ms = Date.UTC(Number(y), month - 1, day, hour, minute, second, millis);
  const check = new Date(ms);
  if (check.getUTCDate() !== day) return undefined;
  if (offset && offset.toUpperCase() !== 'Z') {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
    ms -= sign * offsetMinutes * 60_000;
  }
  return ms;
}
