/** Infobip's timestamps (`2025-03-04T10:15:30.000+0000`) as a Date. */
export function parseTime(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dateAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** Today's times by the clock, older ones with their date. */
export function shortTime(value: string | undefined): string {
  const date = parseTime(value);
  if (!date) return '';
  return date.toDateString() === new Date().toDateString() ? timeOfDay.format(date) : dateAndTime.format(date);
}

export const fullTime = (value: string | undefined): string => {
  const date = parseTime(value);
  return date ? `${dateAndTime.format(date)}.${String(date.getMilliseconds()).padStart(3, '0')}` : '';
};

/** Milliseconds between two timestamps, as a person reads them. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * The one-time codes a text seems to carry: runs of 4 to 10 digits (or of letters and digits with at
 * least one digit, as PIN templates may give) that stand alone.
 */
export function findCodes(text: string | undefined): string[] {
  if (!text) return [];
  const codes = new Set<string>();
  for (const match of text.matchAll(/(?<![\p{L}\p{N}])(\d{4,10}|(?=[A-Z0-9]*\d)[A-Z0-9]{4,10})(?![\p{L}\p{N}])/gu)) codes.add(match[1]!);
  return [...codes];
}

/** A JSON text indented for reading; anything else as it is. */
export function prettyJson(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
