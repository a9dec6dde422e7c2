/**
 * The 2FA configuration's time grammars: a time to live `{timeLength}{timeUnit}` (`15m`, `h`) and a
 * rate `{attempts}/{timeLength}{timeUnit}` (`3/1d`); `timeLength` defaults to 1, units are ms, s,
 * m, h and d. Each field has an upper bound on its time (Infobip's: a year for the PIN's life and
 * send limits, a day for the verify limit).
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{0,10})(ms|s|m|h|d)$/;
const RATE = /^(\d{1,10})\/(\d{0,10})(ms|s|m|h|d)$/;

export const DAY_MS = UNIT_MS.d!;
export const YEAR_MS = 365 * DAY_MS;
const INT32_MAX = 2_147_483_647;

export interface Rate {
  attempts: number;
  windowMs: number;
}

/** A parsed value, or what is wrong with the text (the violation a 400 names). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

function durationOf(length: string, unit: string, maxMs: number, maxText: string): Parsed<number> {
  const ms = (length === '' ? 1 : Number(length)) * UNIT_MS[unit]!;
  if (ms <= 0) return { ok: false, problem: 'the time must be above zero' };
  if (ms > maxMs) return { ok: false, problem: `the time must be at most ${maxText}` };
  return { ok: true, value: ms };
}

/** `pinTimeToLive`: at most a year. */
export function parseTimeToLive(text: string): Parsed<number> {
  const match = DURATION.exec(text);
  if (!match) return { ok: false, problem: 'must be {timeLength}{timeUnit} with a unit of ms, s, m, h or d, e.g. 15m' };
  return durationOf(match[1]!, match[2]!, YEAR_MS, '1 year');
}

/** A rate limit whose window is at most `maxWindowMs` (described as `maxText`). */
export function parseRate(text: string, maxWindowMs: number, maxText: string): Parsed<Rate> {
  const match = RATE.exec(text);
  if (!match) return { ok: false, problem: 'must be {attempts}/{timeLength}{timeUnit} with a unit of ms, s, m, h or d, e.g. 3/1d' };
  const attempts = Number(match[1]);
  if (attempts < 1 || attempts > INT32_MAX) return { ok: false, problem: `attempts must be between 1 and ${INT32_MAX}` };
  const window = durationOf(match[2]!, match[3]!, maxWindowMs, maxText);
  return window.ok ? { ok: true, value: { attempts, windowMs: window.value } } : window;
}

/** Parses a value already validated (stored configurations); a broken one is a programming error. */
export function mustParse<T>(parsed: Parsed<T>, what: string): T {
  if (!parsed.ok) throw new Error(`stored ${what} does not parse: ${parsed.problem}`);
  return parsed.value;
}
