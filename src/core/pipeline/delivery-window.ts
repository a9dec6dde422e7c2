import type { DeliveryWindow } from '../store/types.js';

/**
 * Delivery time windows (`options.deliveryTimeWindow`), always in UTC.
 *
 * - `days` lists the days on which a window OPENS (MONDAY…SUNDAY).
 * - `from`/`to` give the daily opening and closing time; `to` is exclusive. Absent times mean the
 *   whole day; only `from` means "until midnight", only `to` means "from midnight".
 * - `from` after `to` is a window spanning midnight that belongs to the day it opens on:
 *   FRIDAY 22:00–06:00 is open from Friday 22:00 to Saturday 06:00 (Friday 00:00–06:00 is open only
 *   when THURSDAY is listed too). `to` 00:00 therefore means "until midnight".
 * - `from` equal to `to` is read as 24 hours from `from` (Infobip demands `to` − `from` ≥ 1 hour, so
 *   such a window only comes from stored data; reading it as empty would hold messages forever).
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Indexed like `Date.getUTCDay()`. */
const DAY_NAMES = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;

const minutesOf = (time: { hour: number; minute: number }): number => time.hour * 60 + time.minute;

/** Opening offset and length (ms after the opening day's midnight) of the daily window. */
function dailySpan(window: DeliveryWindow): { opensAfter: number; length: number } {
  const from = window.from ? minutesOf(window.from) : 0;
  const to = window.to ? minutesOf(window.to) : 24 * 60;
  const lengthMinutes = to > from ? to - from : 24 * 60 - from + to;
  return { opensAfter: from * MINUTE_MS, length: lengthMinutes * MINUTE_MS };
}

function openingDays(window: DeliveryWindow): Set<number> {
  const days = new Set<number>();
  for (const name of window.days) {
    const index = (DAY_NAMES as readonly string[]).indexOf(name.toUpperCase());
    if (index >= 0) days.add(index);
  }
  if (days.size === 0) throw new RangeError(`delivery window has no valid day: [${window.days.join(', ')}]`);
  return days;
}

/**
 * Returns `at` when the window is open at `at`, otherwise the next instant it opens.
 * Throws RangeError when `days` names no valid day (such a window never opens).
 */
export function nextWindowOpening(window: DeliveryWindow, at: number): number {
  const days = openingDays(window);
  const { opensAfter, length } = dailySpan(window);
  const today = Math.floor(at / DAY_MS) * DAY_MS;
  let next = Number.POSITIVE_INFINITY;
  // Yesterday's window may still be open (it spans midnight); a week ahead always finds an opening.
  for (let offset = -1; offset <= 7; offset++) {
    const midnight = today + offset * DAY_MS;
    if (!days.has(new Date(midnight).getUTCDay())) continue;
    const opens = midnight + opensAfter;
    if (at >= opens && at < opens + length) return at;
    if (opens > at && opens < next) next = opens;
  }
  return next;
}

/** True when the window is open at `at`. */
export const isWindowOpen = (window: DeliveryWindow, at: number): boolean => nextWindowOpening(window, at) === at;
